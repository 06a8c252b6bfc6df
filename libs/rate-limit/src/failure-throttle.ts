import { hash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { createError, withRetryAfter } from '@platform/errors';
import { clientKey } from './client-key';
import { memo } from './memo';
import type { RateLimitStore, WindowCount } from './store';

export const TooManyRequestsError = createError('TOO_MANY_REQUESTS', '%s', 429);

export interface ThrottleRule {
  /** Failures allowed per (client address, identity) and window; 0 turns the rule off. */
  limit: number;
  /**
   * Failures allowed per client address and window, whatever the identities: the ceiling for
   * one address trying many keys or usernames. Much higher than `limit`, so that clients behind
   * one proxy address do not lock each other out. Defaults to 10 × `limit`.
   */
  addressLimit?: number;
  windowSeconds: number;
  /** Named in the 429's detail: "Too many failed logins from this address". */
  what: string;
}

/** One attempt that may fail: settled by `release` when it did not. */
export interface Reservation {
  /** The attempt succeeded (or failed for a reason that is not a credential failure). */
  release(): Promise<void>;
}

export interface FailureThrottle {
  /**
   * Counts one possible failure of `identity` (a key id, a username, a token's id) from
   * `address`, atomically, before the attempt runs: refused with 429 and Retry-After when that
   * pair or that address has used up its failures. However many attempts run at once, at most
   * `limit` failures of one pair (and `addressLimit` of one address) get through per window.
   */
  reserve(scope: string, address: string, identity: string): Promise<Reservation>;
}

const WARN_EVERY_MS = 10_000;
const NO_RESERVATION: Reservation = { release: async () => undefined };

/** Identities are client-chosen and may be secret (a bearer token): keys hold only their hash. */
const identityKey = (identity: string) => hash('sha256', identity, 'hex').slice(0, 24);
/** Parsing the address was a quarter of the throttle's cost on every authenticated request. */
const addressKey = memo(clientKey);

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

  const active = (scope: string) => {
    const rule = rules[scope];
    if (!rule) throw new Error(`No throttle rule named ${scope}`);
    return rule.limit > 0 ? rule : null;
  };

  return {
    async reserve(scope, address, identity) {
      const rule = active(scope);
      if (!rule) return NO_RESERVATION;
      const windowMs = rule.windowSeconds * 1000;
      // The address in braces: a Redis Cluster keeps both keys of an attempt in one slot.
      const byAddress = `${scope}:{${addressKey(address)}}`;
      const keys = [`${byAddress}:${identityKey(identity)}`, byAddress];
      // Incrementing first is what makes it atomic: each attempt learns its own place in line.
      const [pair, all] = await withStore((s) => s.increment(keys, windowMs));
      const release = () => withStore((s) => s.decrement(keys));
      const over = (count: WindowCount, limit: number) => count.count > limit;
      const addressLimit = rule.addressLimit ?? rule.limit * 10;
      if (!over(pair, rule.limit) && !over(all, addressLimit)) return { release };
      await release();
      const resetInMs = Math.max(
        over(pair, rule.limit) ? pair.resetInMs : 0,
        over(all, addressLimit) ? all.resetInMs : 0,
      );
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw withRetryAfter(
        new TooManyRequestsError(
          `Too many ${rule.what} from this address; try again in ${seconds} s`,
        ),
        seconds,
      );
    },
  };
}
