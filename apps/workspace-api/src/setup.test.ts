import { createHarness, type Harness } from '../test/harness';
import { createApiKeysRepository, createApiKeysService } from './api-keys';
import { type AuditChannel, createHostAudit } from './audit';
import { issueFirstKey } from './setup';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  // A fresh stack: no key yet (the harness issues its own).
  await h.db.apiKey.deleteMany();
  await h.db.auditEvent.deleteMany();
});

const apiKeys = () => createApiKeysService({ keys: createApiKeysRepository(h.data) });

describe('setup: the first global_admin key', () => {
  it('is recorded in the audit trail as create_api_key, without its secret', async () => {
    const issued = await issueFirstKey(apiKeys(), createHostAudit(h.data, 'cli'));
    expect(issued).not.toBeNull();
    const events = await h.db.auditEvent.findMany();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      operation: 'create_api_key',
      channel: 'cli',
      actorKind: 'system',
      result: 'success',
      targetType: 'api_key',
      after: expect.objectContaining({ permissions: ['global_admin'] }),
    });
    expect(JSON.stringify(events)).not.toContain(issued?.secret);

    expect(await issueFirstKey(apiKeys(), createHostAudit(h.data, 'cli'))).toBeNull();
    expect(await h.db.auditEvent.count()).toBe(1);
  });

  it('is not issued when its audit event cannot be written', async () => {
    const audit = createHostAudit(h.data, 'cli');
    const channel = 'a-channel-too-long-for-its-column' as AuditChannel;
    const unrecordable = { ...audit, context: { ...audit.context, channel } };
    await expect(issueFirstKey(apiKeys(), unrecordable)).rejects.toThrow();
    expect(await h.db.apiKey.count()).toBe(0);
  });
});
