/** A client's count within the current window. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetInMs: number;
}

/**
 * Counts shared by every replica (Redis). An attempt counts against several keys (its address
 * and identity, its address alone): each operation takes them all, one round trip.
 */
export interface RateLimitStore {
  /** Adds one to each key's count, atomically; a key's first hit starts its window of `windowMs`. */
  increment(keys: readonly string[], windowMs: number): Promise<WindowCount[]>;
  /** Takes one back from each key (never below 0), keeping its window: a reservation that did not fail. */
  decrement(keys: readonly string[]): Promise<void>;
  /** The key's count, unchanged; 0 when it has none. */
  get(key: string): Promise<WindowCount>;
  close(): Promise<void>;
}

/**
 * The same counts in this process: synchronous, so that counting costs an authenticated request
 * no promise (docs/decisions/0009-synchronous-throttle-store.md).
 */
export interface MemoryStore {
  increment(keys: readonly string[], windowMs: number): WindowCount[];
  decrement(keys: readonly string[]): void;
  get(key: string): WindowCount;
  clear(): void;
}
