import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createFailureThrottle, type ThrottleRule } from './failure-throttle';
import { createMemoryStore } from './memory-store';
import { createRedisStore } from './redis-store';
import type { RateLimitStore } from './store';

export interface AuthThrottleOptions {
  /** Shared counts across replicas when set; this process's memory otherwise. */
  redisUrl: string;
  keyPrefix: string;
  rules: Record<string, ThrottleRule>;
}

export interface RequestThrottle {
  /**
   * Runs `attempt` unless the client address, or that address with this `identity` (key id,
   * username, token), has used up its failures; keeps the failure counted when
   * `isFailure(error)`, and gives it back otherwise.
   */
  guard<T>(
    scope: string,
    request: FastifyRequest,
    identity: string,
    attempt: () => Promise<T>,
    isFailure: (error: unknown) => boolean,
  ): Promise<T>;
}

declare module 'fastify' {
  interface FastifyInstance {
    authThrottle: RequestThrottle;
  }
}

const CONNECT_WAIT_MS = 2000;

/**
 * Throttling of failed authentication per (client address, identity) under a higher ceiling per
 * address (`request.ip`, so TRUST_PROXY decides whether X-Forwarded-For counts), available to
 * every route as `app.authThrottle`.
 */
export const authThrottlePlugin = fp(
  async (app: FastifyInstance, options: AuthThrottleOptions) => {
    const fallback = createMemoryStore();
    const redis = options.redisUrl
      ? createRedisStore({ url: options.redisUrl, keyPrefix: options.keyPrefix })
      : null;
    const store: RateLimitStore = redis ?? fallback;
    const throttle = createFailureThrottle({
      store,
      fallback,
      rules: options.rules,
      log: app.log.child({ component: 'auth-throttle' }),
    });

    const requestThrottle: RequestThrottle = {
      async guard(scope, request, identity, attempt, isFailure) {
        const reservation = await throttle.reserve(scope, request.ip, identity);
        const result = await attempt().catch(async (error: unknown) => {
          if (!isFailure(error)) await reservation.release();
          throw error;
        });
        await reservation.release();
        return result;
      },
    };
    app.decorate('authThrottle', requestThrottle);

    app.addHook('onReady', async () => {
      if (redis && !(await redis.connected(CONNECT_WAIT_MS))) {
        app.log.warn('Redis (REDIS_URL) is not reachable yet; failures are counted per process');
      }
    });
    app.addHook('onClose', async () => {
      await Promise.all([store.close(), fallback.close()]);
    });
  },
  { name: 'auth-throttle' },
);
