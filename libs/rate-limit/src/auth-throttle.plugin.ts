import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  createFailureThrottle,
  TooManyRequestsError,
  type Reservation,
  type ThrottleRule,
} from './failure-throttle';
import { clientKey } from './client-key';
import { createMemoryStore } from './memory-store';
import { createSpacedLanes, type SpacedLanes } from './spaced-lane';

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
  /**
   * As `guard`, counting `identity`'s failures from every address together (one account's
   * failures wherever they come from); give the rule `addressLimit: Infinity`. With the rule's
   * `pastLimitIntervalMs`, an attempt past the limit waits in the identity's lane instead of
   * being refused, and leaves it when `signal` aborts (its client has gone).
   */
  guardAcrossAddresses<T>(
    scope: string,
    request: FastifyRequest,
    identity: string,
    attempt: () => Promise<T>,
    isFailure: (error: unknown) => boolean,
    signal?: AbortSignal,
  ): Promise<T>;
}

/** Where `guardAcrossAddresses` counts: no client address parses as this. */
const ANY_ADDRESS = 'any address';

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
    const local = createMemoryStore();
    // Loaded only with Redis: a process that never throttles through it (a CLI that merely
    // imports the library's errors) does not load its client.
    const redis = options.redisUrl
      ? (await import('./redis-store')).createRedisStore({
          url: options.redisUrl,
          keyPrefix: options.keyPrefix,
        })
      : null;
    const throttle = createFailureThrottle({
      shared: redis,
      local,
      rules: options.rules,
      log: app.log.child({ component: 'auth-throttle' }),
    });

    // Each attempt reserves a possible failure before it runs, so a client with many requests in
    // flight at once can find its pair's count full of attempts that are about to succeed. A
    // refused attempt waits for this process's attempts of the same pair to settle and asks
    // again: successes give their reservations back, failures keep theirs, so a client with
    // valid credentials gets through however concurrent, and one past its failures is refused.
    const inFlight = new Map<string, Set<Promise<unknown>>>();

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

    /** Runs the attempt as one of its pair's in flight, from the moment its reservation is made. */
    function run<T>(
      pair: string,
      reservation: Reservation,
      attempt: () => Promise<T>,
      isFailure: (error: unknown) => boolean,
    ): Promise<T> {
      const running = settle(attempt, reservation, isFailure);
      const pending = inFlight.get(pair) ?? new Set<Promise<unknown>>();
      inFlight.set(pair, pending.add(running));
      const done = () => {
        pending.delete(running);
        if (pending.size === 0) inFlight.delete(pair);
      };
      running.then(done, done);
      return running;
    }

    // Counting in this process, the reservation is made at once: an authenticated request pays
    // for no promise but its attempt's and the one it is tracked by
    // (docs/decisions/0009-synchronous-throttle-store.md).
    // A retried attempt joins its pair's in-flight set in the same step as its reservation, so
    // that the attempts refused beside it wait for it rather than finding nothing to wait for.
    function guardAt<T>(
      scope: string,
      address: string,
      identity: string,
      attempt: () => Promise<T>,
      isFailure: (error: unknown) => boolean,
      pastLimit?: () => Promise<T>,
    ): Promise<T> {
      const pair = `${scope}\0${address}\0${identity}`;
      type Attempt = ReturnType<typeof attempt>;
      const start = (): Attempt => {
        let reserved: Reservation | Promise<Reservation>;
        try {
          reserved = throttle.reserve(scope, address, identity);
        } catch (error) {
          return afterRefusal(error);
        }
        return reserved instanceof Promise
          ? reserved.then((reservation) => run(pair, reservation, attempt, isFailure), afterRefusal)
          : run(pair, reserved, attempt, isFailure);
      };
      const afterRefusal = async (error: unknown): Attempt => {
        const pending = inFlight.get(pair);
        if (!(error instanceof TooManyRequestsError)) throw error;
        if (!pending) {
          if (pastLimit) return pastLimit();
          throw error;
        }
        await Promise.allSettled([...pending]);
        return start();
      };
      return start();
    }

    const lanes = new Map<string, SpacedLanes>();
    for (const [scope, rule] of Object.entries(options.rules)) {
      if (rule.pastLimitIntervalMs !== undefined)
        lanes.set(scope, createSpacedLanes(rule.pastLimitIntervalMs));
    }
    const requestThrottle: RequestThrottle = {
      guard: (scope, request, identity, attempt, isFailure) =>
        guardAt(scope, request.ip, identity, attempt, isFailure),
      guardAcrossAddresses: (scope, request, identity, attempt, isFailure, signal) => {
        const lane = lanes.get(scope);
        const address = clientKey(request.ip);
        const pastLimit = lane && (() => lane.enter(identity, address, attempt, signal));
        return guardAt(scope, ANY_ADDRESS, identity, attempt, isFailure, pastLimit);
      },
    };

    app.decorate('authThrottle', requestThrottle);

    app.addHook('onReady', async () => {
      if (redis && !(await redis.connected(CONNECT_WAIT_MS))) {
        app.log.warn('Redis (REDIS_URL) is not reachable yet; failures are counted per process');
      }
    });
    app.addHook('onClose', async () => {
      for (const lane of lanes.values()) lane.close();
      local.clear();
      await redis?.close();
    });
  },
  { name: 'auth-throttle' },
);
