import Redis from 'ioredis';
import type { RateLimitStore, WindowCount } from './store';

// Atomic, so that replicas incrementing the same keys at once never lose a count or a window.
const INCREMENT = `
local counts = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  counts[i] = {n, ttl}
end
return counts`;

// DECR keeps the key's expiry; never below zero, never creating a key that has expired.
const DECREMENT = `
for _, key in ipairs(KEYS) do
  local n = redis.call('GET', key)
  if n and tonumber(n) > 0 then redis.call('DECR', key) end
end
return 0`;

const READ = `
local n = redis.call('GET', KEYS[1])
if not n then return {0, 0} end
return {tonumber(n), redis.call('PTTL', KEYS[1])}`;

export interface RedisStoreOptions {
  url: string;
  /** Prepended to every key, so that services (and tests) sharing a Redis keep apart. */
  keyPrefix: string;
  /** Longest wait for one command; a store that does not answer must not hold up a login. */
  commandTimeoutMs?: number;
}

export interface RedisStore extends RateLimitStore {
  /** Resolves once connected, or after `timeoutMs` (the store then keeps trying in the background). */
  connected(timeoutMs: number): Promise<boolean>;
}

const toCount = ([count, ttl]: [number, number]): WindowCount => ({
  count: Number(count),
  resetInMs: Math.max(0, Number(ttl)),
});

/** Counts shared by every replica. Commands fail fast while Redis is unreachable. */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const redis = new Redis(options.url, {
    keyPrefix: options.keyPrefix,
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: options.commandTimeoutMs ?? 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Errors surface on the commands; the connection's own events would otherwise be unhandled.
  redis.on('error', () => undefined);

  return {
    async increment(keys, windowMs) {
      const counts = (await redis.eval(INCREMENT, keys.length, ...keys, windowMs)) as [
        number,
        number,
      ][];
      return counts.map(toCount);
    },
    async decrement(keys) {
      await redis.eval(DECREMENT, keys.length, ...keys);
    },
    async get(key) {
      return toCount((await redis.eval(READ, 1, key)) as [number, number]);
    },
    connected(timeoutMs) {
      if (redis.status === 'ready') return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        redis.once('ready', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
