import type { Config } from '../config';
import type { Db } from '../db';
import { invalidField } from '../errors';
import type { CalendarEvent, Prisma } from '../generated/prisma/client';
import { addDays, dateInZone, isTimeZone, toDbDate } from '../time/calendar-days';
import { EVENT_ORDER } from './event-response';
import type { ListQuery } from './event-queries.schemas';

export interface EventPage {
  events: CalendarEvent[];
  /** The id to continue after, when more events remain. */
  nextAfterId: number | null;
}

function checkRange(start: string | undefined, end: string | undefined): void {
  // YYYY-MM-DD strings compare like the dates they name.
  if (start !== undefined && end !== undefined && start > end) {
    throw invalidField('start', 'must not be after end');
  }
}

function dateBetween(start: string | undefined, end: string | undefined): Prisma.DateTimeFilter {
  return {
    gte: start === undefined ? undefined : toDbDate(start),
    lte: end === undefined ? undefined : toDbDate(end),
  };
}

/** Reads of events. "Today" comes from the injected clock, in CALENDAR_TIMEZONE unless asked otherwise. */
export function createEventQueriesService({
  db,
  config,
  now,
}: {
  db: Db;
  config: Config;
  now: () => Date;
}) {
  const findOrdered = (where: Prisma.CalendarEventWhereInput) =>
    db.calendarEvent.findMany({ where, orderBy: [...EVENT_ORDER] });

  return {
    onDate: (date: string) => findOrdered({ date: toDbDate(date) }),

    byType: (type: string) => findOrdered({ type }),

    range(start: string, end: string): Promise<CalendarEvent[]> {
      checkRange(start, end);
      return findOrdered({ date: dateBetween(start, end) });
    },

    nextDay(tz: string | undefined): Promise<CalendarEvent[]> {
      const zone = tz ?? config.CALENDAR_TIMEZONE;
      if (!isTimeZone(zone))
        throw invalidField('tz', 'must be an IANA time zone such as Europe/Paris');
      return findOrdered({ date: toDbDate(addDays(dateInZone(now(), zone), 1)) });
    },

    /** Keyset paging on (date, id): every page costs one indexed range scan, however deep. */
    async page(query: ListQuery): Promise<EventPage> {
      checkRange(query.start, query.end);
      const filters: Prisma.CalendarEventWhereInput = {
        type: query.type,
        period: query.period,
        date: dateBetween(query.start, query.end),
      };
      let after: Prisma.CalendarEventWhereInput = {};
      if (query.after_id !== undefined) {
        const last = await db.calendarEvent.findUnique({
          where: { id: query.after_id },
          select: { date: true },
        });
        if (!last) throw invalidField('after_id', 'matches no event; start again without it');
        after = {
          OR: [{ date: { gt: last.date } }, { date: last.date, id: { gt: query.after_id } }],
        };
      }
      const rows = await db.calendarEvent.findMany({
        where: { AND: [filters, after] },
        orderBy: [...EVENT_ORDER],
        take: query.limit + 1,
      });
      const events = rows.slice(0, query.limit);
      return {
        events,
        nextAfterId: rows.length > query.limit ? events[events.length - 1].id : null,
      };
    },
  };
}
export type EventQueriesService = ReturnType<typeof createEventQueriesService>;
