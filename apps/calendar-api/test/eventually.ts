import { waitFor } from '@platform/testing';

/**
 * Polls `check` until it stops throwing (then answers its value) or `timeoutMs` passes. The limit
 * is generous so that a loaded machine never fails a test; a passing check ends the wait at once.
 */
export const eventually = <T>(check: () => Promise<T> | T, timeoutMs = 30_000): Promise<T> =>
  waitFor(async () => check(), timeoutMs, 20);
