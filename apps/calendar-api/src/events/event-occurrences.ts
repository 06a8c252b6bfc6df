import { occurrenceDates } from './recurrence';
import { byDateThenId, type EventRow } from './event-row';

/** Inclusive bounds of a read; either may be open. */
export interface Window {
  from?: string;
  to?: string;
}

/** Two lists ordered by date, then id, as one. */
function merge(a: EventRow[], b: EventRow[]): EventRow[] {
  const merged: EventRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(byDateThenId(a[i], b[j]) <= 0 ? a[i++] : b[j++]);
  while (i < a.length) merged.push(a[i++]);
  while (j < b.length) merged.push(b[j++]);
  return merged;
}

/**
 * The events of a read with each recurring event (a master row, `rrule` set) replaced by its
 * occurrences in `window`, each the event with its own date (id, recurrence and the rest are the
 * series'); by date, then id. The single events come ordered from the database: they are merged
 * with the occurrences, not sorted again (a week holds ~2 000 of them).
 */
export function withOccurrences(rows: EventRow[], window: Window = {}): EventRow[] {
  const singles: EventRow[] = [];
  const occurrences: EventRow[] = [];
  let ordered = true;
  for (const row of rows) {
    if (row.rrule === null) {
      if (singles.length > 0 && byDateThenId(singles[singles.length - 1], row) > 0) ordered = false;
      singles.push(row);
      continue;
    }
    const recurrence = { rrule: row.rrule, exdates: row.exdates };
    for (const date of occurrenceDates(row.date, recurrence, window.from, window.to)) {
      occurrences.push({ ...row, date });
    }
  }
  if (occurrences.length === 0 && ordered) return singles;
  if (!ordered) singles.sort(byDateThenId);
  return merge(singles, occurrences.sort(byDateThenId));
}
