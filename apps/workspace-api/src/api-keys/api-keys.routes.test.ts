import { createHarness, type Credentials, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const createKey = (body: object, credentials: Credentials) =>
  h.call('create_api_key', { name: 'made', ...body }, credentials);

describe('create_api_key grants no more than the caller holds', () => {
  it('refuses a global_admin key to a key holding only api_keys.modify, naming what it lacks, and issues nothing', async () => {
    const manager = await h.issueKey(['api_keys.modify']);
    const before = await h.db.apiKey.count();
    const res = await createKey({ permissions: ['global_admin', 'users.delete'] }, manager);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      code: 'FORBIDDEN',
      detail: 'This API key lacks the permissions it would grant: global_admin, users.delete',
      errors: [{ field: 'permissions', message: expect.stringContaining('global_admin') }],
    });
    expect(await h.db.apiKey.count()).toBe(before);
  });

  it('lets a key grant the permissions it holds, and global_admin grant any', async () => {
    const manager = await h.issueKey(['api_keys.modify', 'users.view']);
    const own = await createKey({ permissions: ['users.view', 'api_keys.modify'] }, manager);
    expect(own.statusCode).toBe(200);
    expect(own.json().api_key.permissions).toEqual(['users.view', 'api_keys.modify']);
    const any = await createKey({ permissions: ['global_admin'] }, h.admin);
    expect(any.statusCode).toBe(200);
  });

  it('refuses a key that expires later than its maker, or never', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const manager = await h.issueKey(['api_keys.modify', 'users.view'], { expiresAt });
    const later = new Date(expiresAt.getTime() + 1000).toISOString();
    for (const body of [{ expires: later }, {}]) {
      const res = await createKey({ permissions: ['users.view'], ...body }, manager);
      expect(res.statusCode).toBe(403);
      expect(res.json().errors).toEqual([
        { field: 'expires', message: expect.stringContaining(expiresAt.toISOString()) },
      ]);
    }
    const within = await createKey(
      { permissions: ['users.view'], expires: expiresAt.toISOString() },
      manager,
    );
    expect(within.statusCode).toBe(200);
  });
});

describe('revoke_api_key revokes no key that outranks the caller', () => {
  it("refuses to revoke the administrators' key to a key manager, which stays usable", async () => {
    const manager = await h.issueKey(['api_keys.modify']);
    const adminId = (await h.db.apiKey.findUniqueOrThrow({ where: { key: h.admin.api_key } })).id;
    const res = await h.call('revoke_api_key', { api_key_id: adminId }, manager);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(
      'This API key may not revoke a key holding permissions it lacks: global_admin',
    );
    expect((await h.call('get_users', {})).statusCode).toBe(200);
  });

  it('lets a key revoke a key holding no more than it', async () => {
    const manager = await h.issueKey(['api_keys.modify', 'users.view']);
    const made = (await createKey({ permissions: ['users.view'] }, manager)).json().api_key;
    const res = await h.call('revoke_api_key', { api_key_id: made.api_key_id }, manager);
    expect(res.statusCode).toBe(200);
  });
});
