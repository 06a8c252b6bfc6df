import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  createFailureThrottle,
  TooManyRequestsError,
  type Reservation,
  type ThrottleRule,
} from './failure-throttle';
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

    // Each attempt reserves a possible failure before it runs, so a client with many requests in
    // flight at once can find its pair's count full of attempts that are about to succeed. A
    // refused attempt waits for this process's attempts of the same pair to settle and asks
    // again: successes give their reservations back, failures keep theirs, so a client with
    // valid credentials gets through however concurrent, and one past its failures is refused.
    const inFlight = new Map<string, Set<Promise<unknown>>>();

    async function reserve(pair: string, scope: string, request: FastifyRequest, identity: string) {
      for (;;) {
        try {
          return await throttle.reserve(scope, request.ip, identity);
        } catch (error) {
          const pending = inFlight.get(pair);
          if (!(error instanceof TooManyRequestsError) || !pending) throw error;
          await Promise.allSettled([...pending]);
        }
      }
    }

    /** Runs `attempt`; its reservation is kept or given back before the promise settles. */
    async function settle<T>(
      attempt: () => Promise<T>,
      reservation: Reservation,
      isFailure: (error: unknown) => boolean,
    ): Promise<T> {
      let result: T;
      try {
        result = await attempt();
      } catch (error) {
        if (!isFailure(error)) await reservation.release();
        throw error;
      }
      await reservation.release();
      return result;
    }

    const requestThrottle: RequestThrottle = {
      async guard(scope, request, identity, attempt, isFailure) {
        const pair = `${scope}\0${request.ip}\0${identity}`;
        const reservation = await reserve(pair, scope, request, identity);
        const running = settle(attempt, reservation, isFailure);
        const pending = inFlight.get(pair) ?? new Set<Promise<unknown>>();
        inFlight.set(pair, pending.add(running));
        const done = () => {
          pending.delete(running);
          if (pending.size === 0) inFlight.delete(pair);
        };
        running.then(done, done);
        return running;
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
