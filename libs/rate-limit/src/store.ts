/** A client's count within the current window. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  resetInMs: number;
}

/** Where counts live: in the process, or in Redis so that every replica sees the same ones. */
export interface RateLimitStore {
  /** Adds one to the key's count; the first hit starts a window of `windowMs`. */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** Takes one back (never below 0), keeping the window: a reservation that did not fail. */
  decrement(key: string): Promise<void>;
  /** The key's count, unchanged; 0 when it has none. */
  get(key: string): Promise<WindowCount>;
  close(): Promise<void>;
}
