import { occurrenceDates } from '../domain/recurrence';
import { byDateThenId, type EventRow } from './event-row';

/** Inclusive bounds of a read; either may be open. */
export interface Window {
  from?: string;
  to?: string;
}

/**
 * The events of a read with each recurring event (a master row, `rrule` set) replaced by its
 * occurrences in `window`, each the event with its own date (id, recurrence and the rest are the
 * series'); by date, then id. Single events come first in `rows`, already in that order.
 */
export function withOccurrences(rows: EventRow[], window: Window = {}): EventRow[] {
  const firstSeries = rows.findIndex((row) => row.rrule !== null);
  if (firstSeries === -1) return rows;
  const singles = rows.slice(0, firstSeries);
  const occurrences: EventRow[] = [];
  for (const event of rows.slice(firstSeries)) {
    const recurrence = { rrule: event.rrule as string, exdates: event.exdates };
    for (const date of occurrenceDates(event.date, recurrence, window.from, window.to)) {
      occurrences.push({ ...event, date });
    }
  }
  return singles.concat(occurrences).sort(byDateThenId);
}
