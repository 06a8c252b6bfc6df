import type { Config } from '../config';
import type { Database } from '../db';
import { addDays, dateInZone, isTimeZone } from '../domain/calendar-days';
import { invalidField } from '../errors';
import type { ListQuery } from './event-queries.schemas';
import type { EventRow } from './event-row';
import { createEventsRepository, type EventFilter } from './events.repository';

export interface EventPage {
  events: EventRow[];
  /** The id to continue after, when more events remain. */
  nextAfterId: number | null;
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
  const onDate = (date: string) => repository.select({ date });

  return {
    onDate,

    byType: (type: string) => repository.select({ type }),

    range(start: string, end: string): Promise<EventRow[]> {
      checkRange(start, end);
      return repository.select({ start, end });
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
        const date = await repository.dateOf(query.after_id);
        if (date === null)
          throw invalidField('after_id', 'matches no event; start again without it');
        filter.after = { date, id: query.after_id };
      }
      const rows = await repository.select(filter);
      const page = rows.slice(0, query.limit);
      return {
        events: page,
        nextAfterId: rows.length > query.limit ? page[page.length - 1].id : null,
      };
    },
  };
}
export type EventQueriesService = ReturnType<typeof createEventQueriesService>;
