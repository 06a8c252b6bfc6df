import { createApiKeysRepository, createApiKeysService } from '../api-keys';
import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const getUsers = (headers: Record<string, string>, payload: object = {}) =>
  h.inject({ method: 'POST', url: '/api/public/get_users', headers, payload });

describe('API key authentication', () => {
  it('accepts credentials in the body, the api-key headers and Basic auth', async () => {
    const { api_key, api_key_secret } = h.admin;
    expect((await h.call('get_users')).statusCode).toBe(200);
    expect(
      (await getUsers({ 'api-key': api_key, 'api-key-secret': api_key_secret })).statusCode,
    ).toBe(200);
    const basic = Buffer.from(`${api_key}:${api_key_secret}`).toString('base64');
    expect((await getUsers({ authorization: `Basic ${basic}` })).statusCode).toBe(200);
  });

  it('accepts a POST without a body when credentials come in headers', async () => {
    const res = await h.inject({
      method: 'POST',
      url: '/api/public/get_users',
      headers: { 'api-key': h.admin.api_key, 'api-key-secret': h.admin.api_key_secret },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers 401 CREDENTIALS_MISSING without credentials', async () => {
    const res = await h.call('get_users', {}, null);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('CREDENTIALS_MISSING');
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it('answers the same 401 CREDENTIALS_INVALID for a wrong secret and an unknown key', async () => {
    const wrongSecret = await h.call('get_users', {}, { ...h.admin, api_key_secret: 'nope' });
    const unknownKey = await h.call('get_users', {}, { ...h.admin, api_key: 'unknown' });
    expect(wrongSecret.statusCode).toBe(401);
    expect(unknownKey.statusCode).toBe(401);
    expect(wrongSecret.json()).toEqual(unknownKey.json());
    expect(wrongSecret.json().code).toBe('CREDENTIALS_INVALID');
  });

  it('checks credentials before the body schema', async () => {
    const res = await h.call(
      'create_user',
      { target_user: 'not an object' },
      { ...h.admin, api_key_secret: 'x' },
    );
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 CREDENTIALS_EXPIRED for an expired key', async () => {
    // Keys cannot be issued already expired: this one expires after it is issued.
    const expired = await h.issueKey(['global_admin'], {
      expiresAt: new Date(Date.now() + 60_000),
    });
    await h.db.apiKey.update({
      where: { key: expired.api_key },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await h.call('get_users', {}, expired);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('CREDENTIALS_EXPIRED');
  });

  it('answers 403 FORBIDDEN when the key lacks the permission, and writes nothing', async () => {
    const viewer = await h.issueKey(['users.view']);
    expect((await h.call('get_users', {}, viewer)).statusCode).toBe(200);
    const res = await h.call('create_user', { target_user: userInput() }, viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'FORBIDDEN',
      detail: expect.stringContaining('users.create'),
    });
    expect(await h.db.user.count()).toBe(0);
  });

  it('answers 403 when a read-only key writes, even with global_admin', async () => {
    const readOnly = await h.issueKey(['global_admin'], { readOnly: true });
    expect((await h.call('get_users', {}, readOnly)).statusCode).toBe(200);
    const res = await h.call('create_user', { target_user: userInput() }, readOnly);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/read-only/);
  });

  it('refuses a revoked key on the very next request', async () => {
    const key = await h.issueKey(['users.view']);
    expect((await h.call('get_users', {}, key)).statusCode).toBe(200);
    const keys = (await h.call('get_api_keys')).json().api_keys;
    const { api_key_id } = keys.find((k: { api_key: string }) => k.api_key === key.api_key);
    expect((await h.call('revoke_api_key', { api_key_id })).statusCode).toBe(200);
    expect((await h.call('get_users', {}, key)).statusCode).toBe(401);
  });
});

describe('API key operations', () => {
  it('issues a key whose secret is returned once and stored only as a hash', async () => {
    const res = await h.call('create_api_key', {
      name: 'ci',
      permissions: ['users.view'],
      read_only: true,
    });
    expect(res.statusCode).toBe(200);
    const { api_key, api_key_secret } = res.json();
    expect(api_key).toMatchObject({
      name: 'ci',
      permissions: ['users.view'],
      read_only: true,
      revoked: null,
    });
    expect(api_key.api_key.length).toBeGreaterThanOrEqual(12);
    expect(api_key_secret.length).toBeGreaterThanOrEqual(32);
    const row = await h.db.apiKey.findUniqueOrThrow({ where: { key: api_key.api_key } });
    expect(row.secretHash).not.toContain(api_key_secret);
    expect(JSON.stringify((await h.call('get_api_keys')).json())).not.toContain(api_key_secret);
    expect(
      (await h.call('get_users', {}, { api_key: api_key.api_key, api_key_secret })).statusCode,
    ).toBe(200);
  });

  it('refuses an expiry already past with 400 API_KEY_EXPIRY_PAST, and issues nothing', async () => {
    const before = await h.db.apiKey.count();
    const res = await h.call('create_api_key', {
      name: 'late',
      permissions: ['users.view'],
      expires: '2020-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'API_KEY_EXPIRY_PAST',
      detail: expect.stringContaining('2020-01-01T00:00:00.000Z is already past'),
    });
    expect(await h.db.apiKey.count()).toBe(before);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const ok = await h.call('create_api_key', {
      name: 'soon',
      permissions: ['users.view'],
      expires: future,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses an expiry already past in the service the CLI uses', async () => {
    const apiKeys = createApiKeysService({ keys: createApiKeysRepository(h.data) });
    await expect(
      apiKeys.issue({ name: 'cli', permissions: ['users.view'], expiresAt: new Date(0) }),
    ).rejects.toMatchObject({ code: 'API_KEY_EXPIRY_PAST', statusCode: 400 });
  });

  it('rejects unknown permissions with 400', async () => {
    const res = await h.call('create_api_key', { name: 'bad', permissions: ['root'] });
    expect(res.statusCode).toBe(400);
  });

  it('answers 404 when revoking an unknown key id', async () => {
    const res = await h.call('revoke_api_key', { api_key_id: '12345678123412341234123456789012' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('API_KEY_NOT_FOUND');
  });
});
