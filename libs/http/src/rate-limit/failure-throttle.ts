import type { FastifyBaseLogger } from 'fastify';
import { createError, withRetryAfter } from '@platform/errors';
import { clientKey } from './client-key';
import type { RateLimitStore } from './store';

export const TooManyRequestsError = createError('TOO_MANY_REQUESTS', '%s', 429);

export interface ThrottleRule {
  /** Failures allowed per client and window; 0 turns the rule off. */
  limit: number;
  windowSeconds: number;
  /** Named in the 429's detail: "Too many failed logins from this address". */
  what: string;
}

export interface FailureThrottle {
  /** Refuses with 429 and Retry-After a client that has used up its failures in `scope`. */
  assertAllowed(scope: string, address: string): Promise<void>;
  /** Counts one failure of the client in `scope`. */
  recordFailure(scope: string, address: string): Promise<void>;
}

const WARN_EVERY_MS = 10_000;

/**
 * Throttles failures (wrong secrets, wrong passwords), not requests: a client may try again and
 * again while it gets in, and is refused once it failed `limit` times within the window. When
 * the shared store fails, counting falls back to this process rather than letting everyone in
 * or locking everyone out.
 */
export function createFailureThrottle({
  store,
  fallback,
  rules,
  log,
}: {
  store: RateLimitStore;
  fallback: RateLimitStore;
  rules: Record<string, ThrottleRule>;
  log: FastifyBaseLogger;
}): FailureThrottle {
  let warnedAt = 0;

  async function withStore<T>(operation: (s: RateLimitStore) => Promise<T>): Promise<T> {
    if (store === fallback) return operation(store);
    try {
      return await operation(store);
    } catch (error) {
      if (Date.now() - warnedAt > WARN_EVERY_MS) {
        warnedAt = Date.now();
        log.warn({ err: error }, 'rate-limit store unavailable; counting in this process');
      }
      return operation(fallback);
    }
  }

  const keyOf = (scope: string, address: string) => `${scope}:${clientKey(address)}`;
  const active = (scope: string) => {
    const rule = rules[scope];
    if (!rule) throw new Error(`No throttle rule named ${scope}`);
    return rule.limit > 0 ? rule : null;
  };

  return {
    async assertAllowed(scope, address) {
      const rule = active(scope);
      if (!rule) return;
      const { count, resetInMs } = await withStore((s) => s.get(keyOf(scope, address)));
      if (count < rule.limit) return;
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw withRetryAfter(
        new TooManyRequestsError(
          `Too many ${rule.what} from this address; try again in ${seconds} s`,
        ),
        seconds,
      );
    },
    async recordFailure(scope, address) {
      const rule = active(scope);
      if (!rule) return;
      await withStore((s) => s.increment(keyOf(scope, address), rule.windowSeconds * 1000));
    },
  };
}
