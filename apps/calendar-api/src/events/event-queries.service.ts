import type { Config } from '../config';
import type { Database } from '../db';
import { addDays, dateInZone, isTimeZone } from '../domain';
import { invalidField } from '../errors';
import type { ListQuery } from './event-queries.schemas';
import { withOccurrences } from './event-occurrences';
import { byDateThenId, type EventRow } from './event-row';
import { createEventsRepository, type EventFilter } from './events.repository';

export interface EventPage {
  events: EventRow[];
  /** The event to continue after, when more remain (its date too, for a recurring one's occurrence). */
  next: { afterId: number; afterDate?: string } | null;
}

function checkRange(start: string | undefined, end: string | undefined): void {
  // YYYY-MM-DD strings compare like the dates they name.
  if (start !== undefined && end !== undefined && start > end) {
    throw invalidField('start', 'must not be after end');
  }
}

/**
 * Reads of events, ordered by date, then id (the order keyset paging walks). "Today" comes from
 * the injected clock, in CALENDAR_TIMEZONE unless asked otherwise.
 */
export function createEventQueriesService({
  db,
  config,
  now,
}: {
  db: Database;
  config: Config;
  now: () => Date;
}) {
  const repository = createEventsRepository(db);
  /** Single events and the occurrences of recurring ones that `filter` matches. */
  async function read(filter: EventFilter, from?: string, to?: string): Promise<EventRow[]> {
    return withOccurrences(await repository.select(filter), { from, to });
  }
  const onDate = (date: string) => read({ date }, date, date);

  return {
    onDate,

    /** Every event of a type and/or period, a recurring one once with its rule (the feed's). */
    async withRules(filter: Pick<EventFilter, 'type' | 'period'>): Promise<EventRow[]> {
      return (await repository.select(filter)).sort(byDateThenId);
    },

    byType: (type: string) => read({ type }),

    range(start: string, end: string): Promise<EventRow[]> {
      checkRange(start, end);
      return read({ start, end }, start, end);
    },

    nextDay(tz: string | undefined): Promise<EventRow[]> {
      const zone = tz ?? config.CALENDAR_TIMEZONE;
      if (!isTimeZone(zone))
        throw invalidField('tz', 'must be an IANA time zone such as Europe/Paris');
      return onDate(addDays(dateInZone(now(), zone), 1));
    },

    /** Keyset paging on (date, id): every page costs one indexed range scan, however deep. */
    async page(query: ListQuery): Promise<EventPage> {
      checkRange(query.start, query.end);
      const filter: EventFilter = {
        type: query.type,
        period: query.period,
        start: query.start,
        end: query.end,
        limit: query.limit + 1,
      };
      if (query.after_id !== undefined) {
        const date = query.after_date ?? (await repository.dateOf(query.after_id));
        if (date === null)
          throw invalidField('after_id', 'matches no event; start again without it');
        filter.after = { date, id: query.after_id };
      }
      const after = filter.after;
      const from =
        after && (query.start === undefined || after.date > query.start) ? after.date : query.start;
      const rows = (await read(filter, from, query.end)).filter(
        (e) => !after || e.date > after.date || (e.date === after.date && e.id > after.id),
      );
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      if (rows.length <= query.limit) return { events: page, next: null };
      return {
        events: page,
        next: { afterId: last.id, afterDate: last.rrule === null ? undefined : last.date },
      };
    },
  };
}
export type EventQueriesService = ReturnType<typeof createEventQueriesService>;
