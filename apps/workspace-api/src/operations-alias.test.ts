import { TEST_THROTTLE } from '@platform/testing';
import { createHarness, type Harness } from '../test/harness';

// Kasm serves its operations under /api/admin as well as /api/public; some clients call that one.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ ...TEST_THROTTLE.env, BODY_LIMIT_BYTES: '2048' });
});
afterAll(() => h?.close());

const admin = (operation: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.inject({ method: 'POST', url: `/api/admin/${operation}`, payload: payload as object, headers });

describe('operations under /api/admin', () => {
  it('answer as under /api/public', async () => {
    const created = await admin('create_user', { ...h.admin, target_user: { username: 'ada' } });
    expect(created.statusCode).toBe(200);
    const body = { target_user: { username: 'ada' } };
    const viaAdmin = await admin('get_user', { ...h.admin, ...body });
    expect(viaAdmin.statusCode).toBe(200);
    expect(viaAdmin.json()).toEqual((await h.call('get_user', body)).json());
    expect(viaAdmin.json().user.user_id).toBe(created.json().user.user_id);
  });

  it('need the same credentials and permissions', async () => {
    const missing = await admin('get_users', {});
    expect(missing.statusCode).toBe(401);
    expect(missing.json().code).toBe('CREDENTIALS_MISSING');
    const wrong = await admin('get_users', { api_key: h.admin.api_key, api_key_secret: 'x' });
    expect(wrong.json().code).toBe('CREDENTIALS_INVALID');
    const viewer = await h.issueKey(['users.view'], { readOnly: true });
    expect((await admin('get_users', viewer)).statusCode).toBe(200);
    const write = await admin('create_user', { ...viewer, target_user: { username: 'bea' } });
    expect(write.statusCode).toBe(403);
    expect(write.json().code).toBe('FORBIDDEN');
  });

  it('count wrong secrets together with /api/public: the throttle is one', async () => {
    const key = await h.issueKey(['users.view']);
    const wrong = { api_key: key.api_key, api_key_secret: 'wrong' };
    const statuses: number[] = [];
    for (let i = 0; i < TEST_THROTTLE.LIMIT + 1; i += 1) {
      const res =
        i % 2 === 0 ? await admin('get_users', wrong) : await h.call('get_users', {}, wrong);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([...Array(TEST_THROTTLE.LIMIT).fill(401), 429]);
    expect((await admin('get_users', key)).statusCode).toBe(429);
  });

  it('pass the same request guards: bad text, malformed JSON, the body limit', async () => {
    const nul = await admin('get_users', { ...h.admin, note: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().code).toBe('VALIDATION_FAILED');
    const malformed = await h.inject({
      method: 'POST',
      url: '/api/admin/get_users',
      headers: { 'content-type': 'application/json' },
      payload: '{"api_key": ',
    });
    expect(malformed.json().code).toBe('INVALID_JSON');
    const large = await admin('create_user', {
      ...h.admin,
      target_user: { username: 'x', notes: 'n'.repeat(4096) },
    });
    expect(large.statusCode).toBe(413);
    const invalid = await admin('get_user', { ...h.admin, target_user: { user_id: 'nope' } });
    expect(invalid.statusCode).toBe(400);
  });

  it('are every operation, each with its permission, and are left out of the OpenAPI document', async () => {
    const operations = (prefix: string) =>
      new Map(
        h.app
          .routeCatalog()
          .filter((r) => r.url.startsWith(prefix))
          .map((r) => [`${r.method} ${r.url.slice(prefix.length)}`, r.config.permission]),
      );
    const publicOnes = operations('/api/public/');
    expect(publicOnes.size).toBeGreaterThan(50);
    // An operation without a permission is served without any API key: only the user's own
    // sign-in (spec: `authenticate`, "none (no API key)") may be one.
    const open = [...publicOnes].filter(([, permission]) => !permission).map(([k]) => k);
    expect(open).toEqual(['POST authenticate']);
    expect(operations('/api/admin/')).toEqual(publicOnes);
    const spec = (await h.inject({ url: '/docs/json' })).json();
    const paths = Object.keys(spec.paths);
    expect(paths.filter((p) => p.startsWith('/api/admin/'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/api/public/'))).toHaveLength(
      new Set([...publicOnes.keys()].map((k) => k.split(' ')[1])).size,
    );
  });
});
