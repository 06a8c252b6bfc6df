import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { problemDetailsPlugin } from '@platform/errors';
import { fastifyOptions } from '@platform/http';
import { redisReachable, TEST_REDIS_URL } from '@platform/testing';
import { authThrottlePlugin } from './auth-throttle.plugin';
import { clientKey } from './client-key';
import { createFailureThrottle, type FailureThrottle, type ThrottleRule } from './failure-throttle';
import { createMemoryStore } from './memory-store';
import { createRedisStore } from './redis-store';
import type { RateLimitStore } from './store';

const silent = Fastify({ logger: { level: 'silent' } }).log;
const rule = (limit: number, windowSeconds = 60): ThrottleRule => ({
  limit,
  windowSeconds,
  what: 'failed logins',
});

describe('clientKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['not-an-address', 'not-an-address'],
  ])('counts %s as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

describe('createMemoryStore', () => {
  it('counts within a window and starts again after it', async () => {
    let now = 1000;
    const store = createMemoryStore({ now: () => now });
    expect(await store.increment(['a'], 100)).toEqual([{ count: 1, resetInMs: 100 }]);
    now += 40;
    expect(await store.increment(['a', 'b'], 100)).toEqual([
      { count: 2, resetInMs: 60 },
      { count: 1, resetInMs: 100 },
    ]);
    await store.decrement(['b']);
    await store.decrement(['b']);
    expect(await store.get('b')).toEqual({ count: 0, resetInMs: 100 });
    expect(await store.get('a')).toEqual({ count: 2, resetInMs: 60 });
    expect(await store.get('c')).toEqual({ count: 0, resetInMs: 0 });
    now += 60;
    expect(await store.get('a')).toEqual({ count: 0, resetInMs: 0 });
    expect(await store.increment(['a'], 100)).toEqual([{ count: 1, resetInMs: 100 }]);
  });

  it('holds at most maxKeys keys, dropping the oldest', async () => {
    const store = createMemoryStore({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await store.increment([key], 60_000);
    expect((await store.get('a')).count).toBe(0);
    expect((await store.get('d')).count).toBe(1);
  });
});

describe('createFailureThrottle', () => {
  /** Counting in `shared` when given, else in this process. */
  const throttleWith = (shared: RateLimitStore | null, limit = 3, addressLimit?: number) =>
    createFailureThrottle({
      shared,
      local: createMemoryStore(),
      rules: { login: { ...rule(limit), addressLimit } },
      log: silent,
    });
  /** A reservation as a promise, also when it is made (or refused) at once. */
  const reserve = async (throttle: FailureThrottle, address: string, identity: string) =>
    throttle.reserve('login', address, identity);
  /** `times` failed attempts: reserved and never released. */
  const fail = async (throttle: FailureThrottle, address: string, identity: string, times = 1) => {
    for (let i = 0; i < times; i += 1) await reserve(throttle, address, identity);
  };

  it('lets a pair fail `limit` times, then refuses it with 429 and Retry-After', async () => {
    const throttle = throttleWith(null);
    await fail(throttle, '198.51.100.1', 'ada', 3);
    const error = await reserve(throttle, '198.51.100.1', 'ada').catch((e: unknown) => e);
    expect(error).toMatchObject({
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
      retryAfterSeconds: 60,
      message: 'Too many failed logins from this address; try again in 60 s',
    });
    await expect(reserve(throttle, '198.51.100.2', 'ada')).resolves.toBeDefined();
  });

  it("never lets one identity's failures lock out another identity from the same address", async () => {
    const throttle = throttleWith(null, 3);
    await fail(throttle, '198.51.100.1', 'mallory', 3);
    await expect(reserve(throttle, '198.51.100.1', 'mallory')).rejects.toMatchObject({
      statusCode: 429,
    });
    const ada = await reserve(throttle, '198.51.100.1', 'ada');
    await ada.release();
  });

  it('refuses an address past its own, much higher ceiling, whatever the identities', async () => {
    const throttle = throttleWith(null, 3, 5);
    for (const name of ['a', 'b', 'c', 'd', 'e']) await fail(throttle, '198.51.100.1', name);
    await expect(reserve(throttle, '198.51.100.1', 'f')).rejects.toMatchObject({
      statusCode: 429,
    });
    await expect(reserve(throttle, '198.51.100.2', 'f')).resolves.toBeDefined();
  });

  it('gives back the reservation of an attempt that did not fail', async () => {
    const throttle = throttleWith(null, 2);
    for (let i = 0; i < 10; i += 1)
      await (await reserve(throttle, '198.51.100.1', 'ada')).release();
    await fail(throttle, '198.51.100.1', 'ada', 2);
    await expect(reserve(throttle, '198.51.100.1', 'ada')).rejects.toMatchObject({
      statusCode: 429,
    });
  });

  it('counts the addresses of one IPv6 /64 together', async () => {
    const throttle = throttleWith(null, 2);
    await fail(throttle, '2001:db8::1', 'ada');
    await fail(throttle, '2001:db8::2', 'ada');
    await expect(reserve(throttle, '2001:db8::3', 'ada')).rejects.toMatchObject({
      statusCode: 429,
    });
    await expect(reserve(throttle, '2001:db8:0:1::3', 'ada')).resolves.toBeDefined();
  });

  it('does nothing with a limit of 0', async () => {
    const throttle = throttleWith(null, 0);
    await fail(throttle, '198.51.100.1', 'ada', 10);
    await expect(reserve(throttle, '198.51.100.1', 'ada')).resolves.toBeDefined();
  });

  it('counts in the process when the shared store fails', async () => {
    const broken: RateLimitStore = {
      increment: () => Promise.reject(new Error('connection refused')),
      decrement: () => Promise.reject(new Error('connection refused')),
      get: () => Promise.reject(new Error('connection refused')),
      close: async () => undefined,
    };
    const throttle = throttleWith(broken, 1);
    await fail(throttle, '198.51.100.1', 'ada');
    await expect(reserve(throttle, '198.51.100.1', 'ada')).rejects.toMatchObject({
      statusCode: 429,
    });
  });

  it('refuses a scope it has no rule for, so a typo cannot turn throttling off', async () => {
    const throttle = throttleWith(null);
    await expect(async () => throttle.reserve('logn', '198.51.100.1', 'ada')).rejects.toThrow(
      'No throttle rule named logn',
    );
  });
});

/** An app whose /login fails unless the password is "right", throttled by `store`'s counts. */
async function loginApp(options: { redisUrl: string; keyPrefix: string; limit: number }) {
  const app = Fastify(fastifyOptions({ logLevel: 'silent', bodyLimitBytes: 1024 }));
  await app.register(problemDetailsPlugin);
  await app.register(authThrottlePlugin, {
    redisUrl: options.redisUrl,
    keyPrefix: options.keyPrefix,
    rules: { login: rule(options.limit) },
  });
  app.post('/login', async (request) => {
    const { user = 'ada', password } = request.body as { user?: string; password?: string };
    return app.authThrottle.guard(
      'login',
      request,
      user,
      async () => {
        // A credential check that takes a moment, as a database lookup does.
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (password !== 'right') throw Object.assign(new Error('wrong'), { statusCode: 401 });
        return { ok: true };
      },
      () => true,
    );
  });
  await app.ready();
  return app;
}

/** 200 concurrent wrong passwords for one user from one address: exactly `limit` (20) are checked. */
async function expectOnlyLimitChecked(redisUrl: string, keyPrefix: string) {
  const app = await loginApp({ redisUrl, keyPrefix, limit: 20 });
  try {
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        app.inject({ method: 'POST', url: '/login', payload: { password: 'wrong' } }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(180);
  } finally {
    await app.close();
  }
}

describe('concurrent failures (in memory)', () => {
  it('lets at most `limit` of 200 concurrent wrong passwords be checked', async () => {
    await expectOnlyLimitChecked('', 'x:');
  });

  it('lets every one of many concurrent right passwords in, however far past `limit`', async () => {
    const app = await loginApp({ redisUrl: '', keyPrefix: 'x:', limit: 3 });
    try {
      const responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          app.inject({ method: 'POST', url: '/login', payload: { password: 'right' } }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    } finally {
      await app.close();
    }
  });
});

describe('guardAcrossAddresses', () => {
  it("counts one identity's failures from every address together, and no other identity's", async () => {
    const app = Fastify(fastifyOptions({ logLevel: 'silent', bodyLimitBytes: 1024 }));
    await app.register(problemDetailsPlugin);
    await app.register(authThrottlePlugin, {
      redisUrl: '',
      keyPrefix: 'x:',
      rules: { account: { ...rule(2), addressLimit: Infinity, where: 'for this account' } },
    });
    app.post('/login', async (request) => {
      const { user, password } = request.body as { user: string; password: string };
      return app.authThrottle.guardAcrossAddresses(
        'account',
        request,
        user,
        async () => {
          if (password !== 'right') throw Object.assign(new Error('wrong'), { statusCode: 401 });
          return { ok: true };
        },
        () => true,
      );
    });
    const login = (user: string, password: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/login', payload: { user, password }, remoteAddress });
    try {
      expect((await login('ada', 'wrong', '192.0.2.1')).statusCode).toBe(401);
      expect((await login('ada', 'wrong', '192.0.2.2')).statusCode).toBe(401);
      const refused = await login('ada', 'right', '192.0.2.3');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().detail).toMatch(/^Too many failed logins for this account; try again/);
      for (let i = 0; i < 5; i += 1) await login(`other-${i}`, 'wrong', '192.0.2.4');
      expect((await login('bob', 'right', '192.0.2.4')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('with Redis', () => {
  let available = false;
  beforeAll(async () => {
    available = await redisReachable(TEST_REDIS_URL);
    if (!available)
      process.stdout.write(`Redis tests skipped: nothing answers at ${TEST_REDIS_URL}\n`);
  });
  const prefix = () => `test-${randomBytes(6).toString('hex')}:`;

  it('counts atomically under concurrency, with one window per key', async () => {
    if (!available) return;
    const store = createRedisStore({ url: TEST_REDIS_URL, keyPrefix: prefix() });
    try {
      expect(await store.connected(2000)).toBe(true);
      const counts = await Promise.all(
        Array.from({ length: 100 }, () => store.increment(['k', 'all'], 5000)),
      );
      expect(counts.map(([c]) => c.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      expect(counts.map(([, c]) => c.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      const now = await store.get('k');
      expect(now.count).toBe(100);
      expect(now.resetInMs).toBeGreaterThan(4000);
      expect(now.resetInMs).toBeLessThanOrEqual(5000);
      expect(await store.get('other')).toEqual({ count: 0, resetInMs: 0 });
      await store.decrement(['k', 'all']);
      expect((await store.get('k')).count).toBe(99);
      expect((await store.get('all')).count).toBe(99);
    } finally {
      await store.close();
    }
  });

  it('lets at most `limit` of 200 concurrent wrong passwords be checked, counted in Redis', async () => {
    if (!available) return;
    await expectOnlyLimitChecked(TEST_REDIS_URL, prefix());
  });

  it('shares the counts of two app instances', async () => {
    if (!available) return;
    const keyPrefix = prefix();
    const build = () => loginApp({ redisUrl: TEST_REDIS_URL, keyPrefix, limit: 4 });
    const apps: FastifyInstance[] = [await build(), await build()];
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await apps[i % 2].inject({
          method: 'POST',
          url: '/login',
          payload: { password: 'wrong' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
      const refused = await apps[1].inject({
        method: 'POST',
        url: '/login',
        payload: { password: 'right' },
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      const other = await apps[0].inject({
        method: 'POST',
        url: '/login',
        payload: { password: 'right' },
        remoteAddress: '198.51.100.9',
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});
