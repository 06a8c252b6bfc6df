import { randomBytes } from 'node:crypto';
import { statusesAcrossReplicas, TEST_REDIS_URL, TEST_THROTTLE } from '@platform/testing';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { userInput, VALID_PASSWORD } from '../factories';
import { createHarness, type Harness } from '../harness';
import { registryFiles, startRegistryServer, type RegistryServer } from '../registry-server';
import { registryList, STANDARD_WORKSPACES } from '../registry-fixtures';

const { LIMIT, ADDRESS_LIMIT } = TEST_THROTTLE;
// The per-(address, username) throttle must trip before the account lock (config refuses otherwise).
const LOCK_AT = String(LIMIT + 1);
const THROTTLED = {
  ...TEST_THROTTLE.env,
  LOGIN_FAILURE_LIMIT: String(LIMIT),
  MAX_FAILED_LOGINS: LOCK_AT,
  TRUST_PROXY: '127.0.0.1',
};

const report = (line: string) => process.stdout.write(`workspace-api abuse: ${line}\n`);
const from = (address: string) => ({ 'x-forwarded-for': address });

describe('throttling failed credentials per (client address, key or username)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(THROTTLED);
  });
  afterAll(() => h.close());

  const getUsers = (secret: string, address: string, key = h.admin.api_key) =>
    h.inject({
      method: 'POST',
      url: '/api/public/get_users',
      payload: { api_key: key, api_key_secret: secret },
      headers: from(address),
    });
  const login = (username: string, password: string, address: string) =>
    h.inject({
      method: 'POST',
      url: '/api/public/authenticate',
      payload: { username, password },
      headers: from(address),
    });

  it('refuses a key with 429 and Retry-After once LIMIT wrong secrets for it came from one address, even the right one', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1)
      statuses.push((await getUsers(`wrong-${i}`, '203.0.113.1')).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    const refused = await getUsers(h.admin.api_key_secret, '203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    expect((await getUsers(h.admin.api_key_secret, '203.0.113.2')).statusCode).toBe(200);
    report(
      `API keys, ${LIMIT + 3} requests from one address: ${statuses.join(' ')} then 429 for the right secret`,
    );
  });

  it("never lets one key's wrong secrets lock out another key's right ones from the same address", async () => {
    const other = await h.issueKey(['users.view']);
    for (let i = 0; i < LIMIT + 2; i += 1) await getUsers(`wrong-${i}`, '203.0.113.5');
    expect((await getUsers(h.admin.api_key_secret, '203.0.113.5')).statusCode).toBe(429);
    const res = await getUsers(other.api_key_secret, '203.0.113.5', other.api_key);
    expect(res.statusCode).toBe(200);
  });

  it('lets at most LIMIT of 200 concurrent wrong secrets for one key be checked', async () => {
    const statuses = (
      await Promise.all(
        Array.from({ length: 200 }, (_, i) => getUsers(`wrong-${i}`, '203.0.113.6')),
      )
    ).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - LIMIT);
    report(
      `API keys, 200 concurrent wrong secrets from one address: ${LIMIT} checked, the rest 429`,
    );
  });

  it('refuses a username with 429 once it failed LIMIT logins from one address; other users still log in', async () => {
    await h.call('create_user', { target_user: userInput({ username: 'target' }) });
    await h.call('create_user', { target_user: userInput({ username: 'bystander' }) });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i += 1)
      statuses.push((await login('target', 'Wr0ng-password!', '203.0.113.3')).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
    const refused = await login('target', VALID_PASSWORD, '203.0.113.3');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await login('bystander', VALID_PASSWORD, '203.0.113.3')).statusCode).toBe(200);
    // Elsewhere the user gets in: a stranger's failures never lock the account.
    expect((await login('target', VALID_PASSWORD, '203.0.113.4')).statusCode).toBe(200);
    report(
      `logins, ${LIMIT + 2} attempts on one username from one address: ${statuses.join(' ')} then 429`,
    );
  });

  it('refuses an address with 429 past its ceiling of failures, whatever the usernames', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ADDRESS_LIMIT + 1; i += 1)
      statuses.push((await login(`someone-${i}`, 'Wr0ng-password!', '203.0.113.7')).statusCode);
    expect(statuses).toEqual([...Array(ADDRESS_LIMIT).fill(401), 429]);
    report(
      `logins, ${ADDRESS_LIMIT + 1} attempts on different usernames from one address: ${statuses.join(' ')}`,
    );
  });

  it('answers an unknown key, a wrong secret and a revoked key with the same body', async () => {
    const other = await createHarness();
    try {
      const revoked = await other.issueKey(['users.view']);
      await other.db.apiKey.update({
        where: { key: revoked.api_key },
        data: { revokedAt: new Date() },
      });
      const call = (credentials: { api_key: string; api_key_secret: string }) =>
        other.call('get_users', {}, credentials);
      const unknown = await call({
        api_key: randomBytes(12).toString('hex'),
        api_key_secret: 'x'.repeat(43),
      });
      const wrong = await call({ api_key: other.admin.api_key, api_key_secret: 'x'.repeat(43) });
      const gone = await call(revoked);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.body).toBe(unknown.body);
      expect(gone.body).toBe(unknown.body);
    } finally {
      await other.close();
    }
  });

  it('answers an unknown user and a wrong password with the same body', async () => {
    const other = await createHarness();
    try {
      await other.call('create_user', { target_user: userInput({ username: 'known' }) });
      const wrong = await other.call(
        'authenticate',
        { username: 'known', password: 'Wr0ng-password!' },
        null,
      );
      const unknown = await other.call(
        'authenticate',
        { username: 'unknown', password: 'Wr0ng-password!' },
        null,
      );
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toBe(unknown.body);
    } finally {
      await other.close();
    }
  });

  it('validates the new configuration keys', () => {
    const base = { DATABASE_URL: 'postgres://x/y' };
    expect(loadConfig(base)).toMatchObject({
      TRUST_PROXY: 'false',
      AUTH_FAILURE_LIMIT: 20,
      LOGIN_FAILURE_LIMIT: 3,
      MAX_FAILED_LOGINS: 5,
      AUTH_FAILURE_ADDRESS_LIMIT: 200,
      OUTBOUND_ALLOW_PRIVATE: false,
      RATE_LIMIT_KEY_PREFIX: 'workspace-api:',
    });
    expect(() => loadConfig({ ...base, TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY: "yes"/);
    expect(() => loadConfig({ ...base, OUTBOUND_ALLOWLIST: 'a b' })).toThrow(
      /OUTBOUND_ALLOWLIST: "a b"/,
    );
    expect(() => loadConfig({ ...base, LOGIN_FAILURE_LIMIT: '-1' })).toThrow(/LOGIN_FAILURE_LIMIT/);
    expect(() => loadConfig({ ...base, LOGIN_FAILURE_LIMIT: '5' })).toThrow(
      'LOGIN_FAILURE_LIMIT (5) must be below MAX_FAILED_LOGINS (5), or 0 to turn the throttle off',
    );
    expect(loadConfig({ ...base, LOGIN_FAILURE_LIMIT: '0', MAX_FAILED_LOGINS: '1' })).toMatchObject(
      { LOGIN_FAILURE_LIMIT: 0 },
    );
  });
});

describe('throttling shared by two replicas through Redis', () => {
  it('counts the failed logins sent to either replica together', async () => {
    const statuses = await statusesAcrossReplicas({
      start: async (redisEnv) => {
        const h = await createHarness({
          LOGIN_FAILURE_LIMIT: String(LIMIT),
          MAX_FAILED_LOGINS: LOCK_AT,
          ...redisEnv,
        });
        const replica = await buildApp(h.config);
        const close = async () => {
          await replica.close();
          await h.close();
        };
        return { replicas: [h.app, replica], close };
      },
      request: {
        method: 'POST',
        url: '/api/public/authenticate',
        payload: { username: 'shared', password: 'Wr0ng-password!' },
      },
      attempts: LIMIT + 2,
    });
    if (!statuses) return report(`Redis test skipped: nothing answers at ${TEST_REDIS_URL}`);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    report(`two replicas sharing Redis, alternating failed logins: ${statuses.join(' ')}`);
  });
});

describe('registry URLs only reach allowed addresses', () => {
  let server: RegistryServer;
  let h: Harness;
  beforeAll(async () => {
    server = await startRegistryServer();
    server.serve('/reg', registryFiles('1.0', { '1.0': registryList(STANDARD_WORKSPACES) }));
    h = await createHarness({ OUTBOUND_ALLOWLIST: '' });
  });
  afterAll(async () => {
    await h.close();
    await server.close();
  });

  const add = (url: string) => h.call('add_registry', { registry_url: url });

  it.each([
    [
      'the loopback address',
      (port: string) => `http://127.0.0.1:${port}/reg`,
      /127\.0\.0\.1 is a loopback address/,
    ],
    [
      'a name of the host itself',
      (port: string) => `http://localhost:${port}/reg`,
      /localhost \(.*\) is a loopback address/,
    ],
    [
      'IPv4-mapped IPv6 loopback',
      (port: string) => `http://[::ffff:127.0.0.1]:${port}/reg`,
      /is a loopback address/,
    ],
    [
      'the cloud metadata address',
      () => 'http://169.254.169.254/latest/',
      /169\.254\.169\.254 is a link-local address/,
    ],
    ['a private address', () => 'http://10.1.2.3/reg/', /10\.1\.2\.3 is a private address/],
    [
      '0.0.0.0',
      (port: string) => `http://0.0.0.0:${port}/reg`,
      /0\.0\.0\.0 is a unspecified address/,
    ],
  ])('refuses %s without connecting', async (_label, url, message) => {
    const port = new URL(server.origin).port;
    const res = await add(url(port));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'REGISTRY_UNREACHABLE',
      detail: expect.stringMatching(message),
    });
    expect(await h.db.registry.count()).toBe(0);
  });

  it('allows a private registry listed in OUTBOUND_ALLOWLIST, and follows at most three redirects', async () => {
    const allowed = await createHarness({ OUTBOUND_ALLOWLIST: '127.0.0.1' });
    try {
      // Each hop redirects versions.txt to the next one; the list is served everywhere.
      for (let hop = 0; hop < 5; hop += 1) {
        server.serve(`/hop${hop}`, {
          ...registryFiles('1.0', { '1.0': registryList(STANDARD_WORKSPACES) }),
          'versions.txt': (_req, res) =>
            res.writeHead(302, { location: `/hop${hop + 1}/versions.txt` }).end(),
        });
      }
      server.serve('/hop5', registryFiles('1.0', { '1.0': registryList(STANDARD_WORKSPACES) }));
      expect(
        (await allowed.call('add_registry', { registry_url: `${server.origin}/hop2` })).statusCode,
      ).toBe(200);
      const far = await allowed.call('add_registry', { registry_url: `${server.origin}/hop0` });
      expect(far.json()).toMatchObject({
        code: 'REGISTRY_UNREACHABLE',
        detail: expect.stringContaining('more than 3 redirects'),
      });
      server.serve('/to-private', {
        'versions.txt': (_req, res) =>
          res.writeHead(307, { location: 'http://10.0.0.1/versions.txt' }).end(),
      });
      const redirected = await allowed.call('add_registry', {
        registry_url: `${server.origin}/to-private`,
      });
      expect(redirected.json().detail).toMatch(/10\.0\.0\.1 is a private address/);
    } finally {
      await allowed.close();
    }
  });
});
