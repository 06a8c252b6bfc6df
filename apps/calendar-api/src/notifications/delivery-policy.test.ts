import { backoffDelayMs, decideOutcome, parseRetryAfter } from './delivery-policy';

const backoff = { baseMs: 1000, maxMs: 60_000 };
const policy = { ...backoff, maxAttempts: 5 };
const low = () => 0;
const high = () => 0.999999;

describe('backoffDelayMs', () => {
  it('doubles per attempt, between half and all of the step', () => {
    expect([1, 2, 3, 4].map((a) => backoffDelayMs(a, backoff, low))).toEqual([
      500, 1000, 2000, 4000,
    ]);
    expect([1, 2, 3, 4].map((a) => backoffDelayMs(a, backoff, high))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
  });

  it('stops growing at the cap, even for absurd attempt numbers', () => {
    expect(backoffDelayMs(7, backoff, high)).toBe(60_000);
    expect(backoffDelayMs(10_000, backoff, high)).toBe(60_000);
    expect(backoffDelayMs(10_000, backoff, low)).toBe(30_000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-03-05T15:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads an HTTP-date, never into the past', () => {
    expect(parseRetryAfter('Wed, 05 Mar 2025 15:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 05 Mar 2025 14:00:00 GMT', now)).toBe(0);
  });

  it('caps a delay of more than a day', () => {
    expect(parseRetryAfter('999999999', now)).toBe(86_400_000);
  });

  it.each([[null], [''], ['soon'], ['-5'], ['1.5']])('ignores %j', (header) => {
    expect(parseRetryAfter(header, now)).toBeNull();
  });
});

describe('decideOutcome', () => {
  const response = (status: number, retryAfterMs: number | null = null) =>
    ({ kind: 'response', status, retryAfterMs }) as const;

  it.each([200, 201, 204])('marks %i delivered', (status) => {
    expect(decideOutcome(response(status), 1, policy)).toEqual({ status: 'delivered' });
  });

  it.each([400, 401, 403, 404, 410])('fails %i at once, on the first attempt', (status) => {
    expect(decideOutcome(response(status), 1, policy)).toEqual({ status: 'failed' });
  });

  it.each([500, 502, 503, 408, 409])('retries %i after the backoff', (status) => {
    expect(decideOutcome(response(status), 2, policy, low)).toEqual({
      status: 'pending',
      delayMs: 1000,
    });
  });

  it('retries a network error or timeout after the backoff', () => {
    expect(decideOutcome({ kind: 'error' }, 1, policy, high)).toEqual({
      status: 'pending',
      delayMs: 1000,
    });
  });

  it('waits exactly what a 429 Retry-After asks, not the backoff', () => {
    expect(decideOutcome(response(429, 1000), 3, policy, high)).toEqual({
      status: 'pending',
      delayMs: 1000,
    });
    expect(decideOutcome(response(429), 3, policy, high)).toEqual({
      status: 'pending',
      delayMs: 4000,
    });
  });

  it('fails once the attempts are used up', () => {
    expect(decideOutcome(response(500), 5, policy)).toEqual({ status: 'failed' });
    expect(decideOutcome({ kind: 'error' }, 5, policy)).toEqual({ status: 'failed' });
    expect(decideOutcome(response(200), 5, policy)).toEqual({ status: 'delivered' });
  });
});
