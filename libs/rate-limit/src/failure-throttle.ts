import { hash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { createError, withRetryAfter } from '@platform/errors';
import { clientKey } from './client-key';
import { memo } from './memo';
import type { MemoryStore, RateLimitStore, WindowCount } from './store';

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
  /** Where the failures came from, in that detail; "from this address" unless given. */
  where?: string;
  /**
   * For `guardAcrossAddresses`: past the limit an attempt is not refused but waits its turn in
   * the identity's lane, where attempts run one at a time, at least this far apart (see
   * `SpacedLanes`). Right credentials still get in; wrong ones stay bounded in number.
   */
  pastLimitIntervalMs?: number;
}

/** One attempt that may fail: settled by `release` when it did not. */
export interface Reservation {
  /** The attempt succeeded (or failed for a reason that is not a credential failure). */
  release(): void | Promise<void>;
}

export interface FailureThrottle {
  /**
   * Counts one possible failure of `identity` (a key id, a username, a token's id) from
   * `address`, atomically, before the attempt runs: refused with 429 and Retry-After when that
   * pair or that address has used up its failures. However many attempts run at once, at most
   * `limit` failures of one pair (and `addressLimit` of one address) get through per window.
   * Counting in this process, the reservation is returned and a refusal thrown at once; counting
   * in Redis, either comes as a promise.
   */
  reserve(scope: string, address: string, identity: string): Reservation | Promise<Reservation>;
}

const WARN_EVERY_MS = 10_000;
const NO_RESERVATION: Reservation = { release: () => undefined };

/** Identities are client-chosen and may be secret (a bearer token): keys hold only their hash. */
const identityKey = (identity: string) => hash('sha256', identity, 'hex').slice(0, 24);
/** Parsing the address was a quarter of the throttle's cost on every authenticated request. */
const addressKey = memo(clientKey);

/** Where an attempt is counted: synchronously in this process, or in Redis. */
interface Counts {
  increment(keys: readonly string[], windowMs: number): WindowCount[] | Promise<WindowCount[]>;
  decrement(keys: readonly string[]): void | Promise<void>;
}

/** Redis's counts; this process's while Redis fails, rather than letting everyone in or locking everyone out. */
function sharedCounts(shared: RateLimitStore, local: MemoryStore, log: FastifyBaseLogger): Counts {
  let warnedAt = 0;
  async function orLocally<T>(operation: () => Promise<T>, locally: () => T): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (Date.now() - warnedAt > WARN_EVERY_MS) {
        warnedAt = Date.now();
        log.warn({ err: error }, 'rate-limit store unavailable; counting in this process');
      }
      return locally();
    }
  }
  return {
    increment: (keys, windowMs) =>
      orLocally(
        () => shared.increment(keys, windowMs),
        () => local.increment(keys, windowMs),
      ),
    decrement: (keys) =>
      orLocally(
        () => shared.decrement(keys),
        () => local.decrement(keys),
      ),
  };
}

/**
 * Throttles failures (wrong secrets, wrong passwords), not requests: a client may try again and
 * again while it gets in, and is refused once it failed `limit` times within the window. Counts
 * live in `shared` (Redis) when given, else in this process.
 */
export function createFailureThrottle({
  shared,
  local,
  rules,
  log,
}: {
  shared: RateLimitStore | null;
  local: MemoryStore;
  rules: Record<string, ThrottleRule>;
  log: FastifyBaseLogger;
}): FailureThrottle {
  const counts: Counts = shared ? sharedCounts(shared, local, log) : local;

  const active = (scope: string) => {
    const rule = rules[scope];
    if (!rule) throw new Error(`No throttle rule named ${scope}`);
    return rule.limit > 0 ? rule : null;
  };

  /** The reservation, or the refusal once the count is given back. */
  function decide(
    rule: ThrottleRule,
    keys: readonly string[],
    [pair, all]: WindowCount[],
  ): Reservation | Promise<never> {
    const release = () => counts.decrement(keys);
    const pairOver = pair.count > rule.limit;
    const allOver = all.count > (rule.addressLimit ?? rule.limit * 10);
    if (!pairOver && !allOver) return { release };
    const resetInMs = Math.max(pairOver ? pair.resetInMs : 0, allOver ? all.resetInMs : 0);
    const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
    const refusal = withRetryAfter(
      new TooManyRequestsError(
        `Too many ${rule.what} ${rule.where ?? 'from this address'}; try again in ${seconds} s`,
      ),
      seconds,
    );
    const released = release();
    if (released) {
      return released.then(() => {
        throw refusal;
      });
    }
    throw refusal;
  }

  return {
    reserve(scope, address, identity) {
      const rule = active(scope);
      if (!rule) return NO_RESERVATION;
      // The address in braces: a Redis Cluster keeps both keys of an attempt in one slot.
      const byAddress = `${scope}:{${addressKey(address)}}`;
      const keys = [`${byAddress}:${identityKey(identity)}`, byAddress];
      // Incrementing first is what makes it atomic: each attempt learns its own place in line.
      const counted = counts.increment(keys, rule.windowSeconds * 1000);
      return counted instanceof Promise
        ? counted.then((found) => decide(rule, keys, found))
        : decide(rule, keys, counted);
    },
  };
}
