import { LRUCache } from 'lru-cache';

/**
 * A map whose entries live `ttlMs` and which never holds more than `maxEntries` (past that, the
 * least recently used goes): lru-cache, for caches keyed by what requests name (session ids,
 * grant ids), which would otherwise grow with every distinct key a process ever saw. Values are
 * boxed because lru-cache holds no null, and these caches remember "no such thing" too.
 */
export function createExpiringCache<K extends NonNullable<unknown>, V>({
  ttlMs,
  maxEntries,
  now,
}: {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}) {
  const entries = new LRUCache<K, { value: V }>({
    max: maxEntries,
    ttl: ttlMs,
    // A clock of one's own (tests) is read on every look-up: lru-cache's own keeps each reading
    // for a millisecond of real time.
    ...(now && { perf: { now }, ttlResolution: 0 }),
  });

  return {
    /** The value while it is fresh; an expired one is dropped. */
    get: (key: K): V | undefined => entries.get(key)?.value,
    set(key: K, value: V): void {
      entries.set(key, { value });
    },
    delete(key: K): void {
      entries.delete(key);
    },
    /** Drops every entry whose value matches. */
    deleteWhere(matches: (value: V) => boolean): void {
      const gone = [...entries.entries()].filter(([, entry]) => matches(entry.value));
      for (const [key] of gone) entries.delete(key);
    },
    get size(): number {
      return entries.size;
    },
  };
}
