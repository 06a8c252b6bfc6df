import { describeInChange } from './audit-in-change';
import type { Harness } from '../harness';

// create_api_key and revoke_api_key write their audit event in the key's own transaction.

/** A key that holds little, by its wire id. */
const someKeyId = async (h: Harness): Promise<string> =>
  (await h.call('create_api_key', { name: 'someone', permissions: ['users.view'] })).json().api_key
    .api_key_id;

describeInChange([
  {
    operation: 'create_api_key',
    table: 'api_key',
    arrange: async () => ({ name: 'made', permissions: ['users.view'] }),
    state: (h) => h.db.apiKey.count({ where: { name: 'made' } }),
    targetId: (_body, answer) => answer.api_key.api_key_id,
    snapshots: (before, after) => {
      expect(before).toBeNull();
      expect(after).toMatchObject({ name: 'made', permissions: ['users.view'] });
      expect(JSON.stringify(after)).not.toMatch(/secret/i);
    },
  },
  {
    operation: 'revoke_api_key',
    table: 'api_key',
    arrange: async (h) => ({ api_key_id: await someKeyId(h) }),
    state: (h) => h.db.apiKey.findMany({ where: { name: 'someone' }, select: { revokedAt: true } }),
    targetId: (body) => String(body.api_key_id),
    snapshots: (before, after) => {
      expect(before).toMatchObject({ name: 'someone', revoked: null });
      expect(after).toMatchObject({ name: 'someone', revoked: expect.any(String) });
    },
  },
]);
