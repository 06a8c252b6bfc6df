import { randomBytes } from 'node:crypto';
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { problemDetailsPlugin } from '@platform/errors';
import { fastifyOptions } from '../fastify-options';
import { authThrottlePlugin } from './auth-throttle.plugin';
import { clientKey } from './client-key';
import { createFailureThrottle, type ThrottleRule } from './failure-throttle';
import { createMemoryStore } from './memory-store';
import { createRedisStore } from './redis-store';
import type { RateLimitStore } from './store';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = Fastify({ logger: { level: 'silent' } }).log;
const rule = (limit: number, windowSeconds = 60): ThrottleRule => ({
  limit,
  windowSeconds,
  what: 'failed logins',
});

function redisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    socket.setTimeout(500, () => socket.destroy());
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

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
    expect(await store.increment('a', 100)).toEqual({ count: 1, resetInMs: 100 });
    now += 40;
    expect(await store.increment('a', 100)).toEqual({ count: 2, resetInMs: 60 });
    expect(await store.get('a')).toEqual({ count: 2, resetInMs: 60 });
    expect(await store.get('b')).toEqual({ count: 0, resetInMs: 0 });
    now += 60;
    expect(await store.get('a')).toEqual({ count: 0, resetInMs: 0 });
    expect(await store.increment('a', 100)).toEqual({ count: 1, resetInMs: 100 });
  });

  it('holds at most maxKeys keys, dropping the oldest', async () => {
    const store = createMemoryStore({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await store.increment(key, 60_000);
    expect((await store.get('a')).count).toBe(0);
    expect((await store.get('d')).count).toBe(1);
  });
});

describe('createFailureThrottle', () => {
  const throttleWith = (store: RateLimitStore, limit = 3) =>
    createFailureThrottle({
      store,
      fallback: createMemoryStore(),
      rules: { login: rule(limit) },
      log: silent,
    });

  it('lets a client fail `limit` times, then refuses it with 429 and Retry-After', async () => {
    const throttle = throttleWith(createMemoryStore());
    for (let i = 0; i < 3; i += 1) {
      await throttle.assertAllowed('login', '198.51.100.1');
      await throttle.recordFailure('login', '198.51.100.1');
    }
    const error = await throttle.assertAllowed('login', '198.51.100.1').catch((e: unknown) => e);
    expect(error).toMatchObject({
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
      retryAfterSeconds: 60,
      message: 'Too many failed logins from this address; try again in 60 s',
    });
    await expect(throttle.assertAllowed('login', '198.51.100.2')).resolves.toBeUndefined();
  });

  it('counts the addresses of one IPv6 /64 together', async () => {
    const throttle = throttleWith(createMemoryStore(), 2);
    await throttle.recordFailure('login', '2001:db8::1');
    await throttle.recordFailure('login', '2001:db8::2');
    await expect(throttle.assertAllowed('login', '2001:db8::3')).rejects.toMatchObject({
      statusCode: 429,
    });
    await expect(throttle.assertAllowed('login', '2001:db8:0:1::3')).resolves.toBeUndefined();
  });

  it('does nothing with a limit of 0', async () => {
    const throttle = throttleWith(createMemoryStore(), 0);
    for (let i = 0; i < 10; i += 1) await throttle.recordFailure('login', '198.51.100.1');
    await expect(throttle.assertAllowed('login', '198.51.100.1')).resolves.toBeUndefined();
  });

  it('counts in the process when the shared store fails', async () => {
    const broken: RateLimitStore = {
      increment: () => Promise.reject(new Error('connection refused')),
      get: () => Promise.reject(new Error('connection refused')),
      close: async () => undefined,
    };
    const throttle = throttleWith(broken, 1);
    await throttle.recordFailure('login', '198.51.100.1');
    await expect(throttle.assertAllowed('login', '198.51.100.1')).rejects.toMatchObject({
      statusCode: 429,
    });
  });

  it('refuses a scope it has no rule for, so a typo cannot turn throttling off', async () => {
    const throttle = throttleWith(createMemoryStore());
    await expect(throttle.assertAllowed('logn', '198.51.100.1')).rejects.toThrow(
      'No throttle rule named logn',
    );
  });
});

describe('with Redis', () => {
  let available = false;
  beforeAll(async () => {
    available = await redisReachable();
    if (!available) process.stdout.write(`Redis tests skipped: nothing answers at ${REDIS_URL}\n`);
  });
  const prefix = () => `test-${randomBytes(6).toString('hex')}:`;

  it('counts atomically under concurrency, with one window per key', async () => {
    if (!available) return;
    const store = createRedisStore({ url: REDIS_URL, keyPrefix: prefix() });
    try {
      expect(await store.connected(2000)).toBe(true);
      const counts = await Promise.all(
        Array.from({ length: 100 }, () => store.increment('k', 5000)),
      );
      expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      const now = await store.get('k');
      expect(now.count).toBe(100);
      expect(now.resetInMs).toBeGreaterThan(4000);
      expect(now.resetInMs).toBeLessThanOrEqual(5000);
      expect(await store.get('other')).toEqual({ count: 0, resetInMs: 0 });
    } finally {
      await store.close();
    }
  });

  it('shares the counts of two app instances', async () => {
    if (!available) return;
    const keyPrefix = prefix();
    const build = async () => {
      const app = Fastify(fastifyOptions({ logLevel: 'silent', bodyLimitBytes: 1024 }));
      await app.register(problemDetailsPlugin);
      await app.register(authThrottlePlugin, {
        redisUrl: REDIS_URL,
        keyPrefix,
        rules: { login: rule(4) },
      });
      app.post('/login', async (request) =>
        app.authThrottle.guard(
          'login',
          request,
          async () => {
            if ((request.body as { password?: string }).password !== 'right')
              throw new Error('wrong');
            return { ok: true };
          },
          () => true,
        ),
      );
      await app.ready();
      return app;
    };
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
      expect(statuses).toEqual([500, 500, 500, 500, 429, 429]);
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
