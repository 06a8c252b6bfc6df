/**
 * A map whose entries live `ttlMs` and which never holds more than `maxEntries`: past that, the
 * expired entries go, then the oldest. For caches keyed by what requests name (session ids,
 * grant ids), which would otherwise grow with every distinct key a process ever saw.
 */
export function createExpiringCache<K, V>({
  ttlMs,
  maxEntries,
  now = Date.now,
}: {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}) {
  const entries = new Map<K, { value: V; until: number }>();

  function makeRoom() {
    if (entries.size < maxEntries) return;
    const at = now();
    for (const [key, entry] of entries) if (entry.until <= at) entries.delete(key);
    // Insertion order: the first keys are the oldest.
    for (const key of entries.keys()) {
      if (entries.size < maxEntries) break;
      entries.delete(key);
    }
  }

  return {
    /** The value while it is fresh; an expired one is dropped. */
    get(key: K): V | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.until > now()) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key: K, value: V): void {
      entries.delete(key);
      makeRoom();
      entries.set(key, { value, until: now() + ttlMs });
    },
    delete(key: K): void {
      entries.delete(key);
    },
    /** Drops every entry whose value matches. */
    deleteWhere(matches: (value: V) => boolean): void {
      for (const [key, entry] of entries) if (matches(entry.value)) entries.delete(key);
    },
    get size(): number {
      return entries.size;
    },
  };
}
