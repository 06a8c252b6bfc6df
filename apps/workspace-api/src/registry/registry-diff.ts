/** JSON with object keys sorted, so that equal values compare equal whatever their key order (jsonb reorders keys). */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface EntryDiff {
  added: string[];
  changed: string[];
  removed: string[];
}

/** What a refresh does to a registry's stored entries, by workspace name; each list sorted. */
export function diffEntries(
  before: readonly { name: string; data: unknown }[],
  after: readonly { name: string }[],
): EntryDiff {
  const old = new Map(before.map((e) => [e.name, stableJson(e.data)]));
  const fresh = new Set(after.map((e) => e.name));
  const added: string[] = [];
  const changed: string[] = [];
  for (const entry of after) {
    const previous = old.get(entry.name);
    if (previous === undefined) added.push(entry.name);
    else if (previous !== stableJson(entry)) changed.push(entry.name);
  }
  const removed = before.map((e) => e.name).filter((name) => !fresh.has(name));
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}
