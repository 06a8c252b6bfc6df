/** Answers that another attempt cannot fix: the payload or the target itself is wrong. */
export const PERMANENT_STATUSES = new Set([400, 401, 403, 404, 405, 410, 413, 422]);
/** However long a Retry-After asks for, the next attempt comes within a day. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

export interface BackoffSettings {
  baseMs: number;
  maxMs: number;
}

/**
 * Delay before retrying after failed attempt number `attempt` (1-based): doubling from baseMs,
 * capped at maxMs, with "equal jitter" (between half and all of it) so that replicas retrying
 * the same outage spread out. `random` is in [0, 1).
 */
export function backoffDelayMs(
  attempt: number,
  { baseMs, maxMs }: BackoffSettings,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** RFC 9110 Retry-After (delay-seconds or an HTTP-date) in milliseconds; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(value);
  if (Number.isNaN(date) || !/[a-z]/i.test(value)) return null;
  return Math.min(Math.max(date - nowMs, 0), MAX_RETRY_AFTER_MS);
}

export type Attempt =
  { kind: 'response'; status: number; retryAfterMs: number | null } | { kind: 'error' };

export type Outcome =
  { status: 'delivered' } | { status: 'failed' } | { status: 'pending'; delayMs: number };

/**
 * What becomes of a notification after attempt number `attempt`: delivered on 2xx; failed at
 * once on an answer retrying cannot fix, or when the attempts are used up; otherwise retried
 * after Retry-After (on 429/503) or the backoff.
 */
export function decideOutcome(
  result: Attempt,
  attempt: number,
  policy: BackoffSettings & { maxAttempts: number },
  random: () => number = Math.random,
): Outcome {
  if (result.kind === 'response') {
    if (result.status >= 200 && result.status < 300) return { status: 'delivered' };
    if (PERMANENT_STATUSES.has(result.status)) return { status: 'failed' };
  }
  if (attempt >= policy.maxAttempts) return { status: 'failed' };
  const retryAfter = result.kind === 'response' ? result.retryAfterMs : null;
  return { status: 'pending', delayMs: retryAfter ?? backoffDelayMs(attempt, policy, random) };
}
