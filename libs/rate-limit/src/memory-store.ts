import type { MemoryStore, WindowCount } from './store';

interface Entry {
  count: number;
  resetAt: number;
}

/**
 * Counts in this process only: right for one replica, or as the fallback when Redis is away.
 * Bounded: past `maxKeys` the expired entries go, then the oldest.
 */
export function createMemoryStore({
  maxKeys = 100_000,
  now = Date.now,
}: { maxKeys?: number; now?: () => number } = {}): MemoryStore {
  const entries = new Map<string, Entry>();

  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry && entry.resetAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  function makeRoom() {
    if (entries.size < maxKeys) return;
    const at = now();
    for (const [key, entry] of entries) if (entry.resetAt <= at) entries.delete(key);
    for (const key of entries.keys()) {
      if (entries.size < maxKeys) break;
      entries.delete(key);
    }
  }

  const countOf = (entry: Entry | undefined): WindowCount =>
    entry ? { count: entry.count, resetInMs: entry.resetAt - now() } : { count: 0, resetInMs: 0 };

  function incrementOne(key: string, windowMs: number): WindowCount {
    let entry = live(key);
    if (!entry) {
      makeRoom();
      entry = { count: 0, resetAt: now() + windowMs };
      entries.set(key, entry);
    }
    entry.count += 1;
    return countOf(entry);
  }

  return {
    increment(keys, windowMs) {
      return keys.map((key) => incrementOne(key, windowMs));
    },
    decrement(keys) {
      for (const key of keys) {
        const entry = live(key);
        if (entry && entry.count > 0) entry.count -= 1;
      }
    },
    get(key) {
      return countOf(live(key));
    },
    clear() {
      entries.clear();
    },
  };
}
