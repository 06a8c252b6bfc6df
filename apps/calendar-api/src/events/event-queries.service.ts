import type { Config } from '../config';
import { tableOf, type Db } from '../db';
import { invalidField } from '../errors';
import { Prisma } from '../generated/prisma/client';
import { addDays, dateInZone, fromDbDate, isTimeZone } from '../time/calendar-days';
import type { ListQuery } from './event-queries.schemas';
import type { EventResponse } from './events.schemas';

export interface EventPage {
  events: EventResponse[];
  /** The id to continue after, when more events remain. */
  nextAfterId: number | null;
}

interface EventRow {
  id: number;
  date: string;
  title: string;
  description: string;
  type: string;
  period: string | null;
  source_channel: string | null;
  source_message_id: string | null;
  from_chat: boolean;
  created_at: string;
  updated_at: string;
}

// Dates and timestamps come as text (ISO DateStyle, which pg's own parsers assume too) and are
// reformatted, never parsed: two Date objects per row were most of the CPU of a week's listing.
const COLUMNS = Prisma.sql`id, date::text AS date, title, description, type, period, source_channel,
  source_message_id, chat_message_id IS NOT NULL AS from_chat,
  (created_at AT TIME ZONE 'UTC')::text AS created_at, (updated_at AT TIME ZONE 'UTC')::text AS updated_at`;

/** `2025-03-03 09:30:00.12` (a UTC timestamp as Postgres prints it) → `2025-03-03T09:30:00.120Z`. */
export function isoFromUtcText(text: string): string {
  if (text[4] !== '-' || text.length > 23)
    return new Date(`${text.replace(' ', 'T')}Z`).toISOString();
  const fraction = text.length > 20 ? text.slice(20).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}

function toWire(row: EventRow): EventResponse {
  return {
    id: row.id,
    date: row.date,
    title: row.title,
    description: row.description,
    type: row.type,
    period: row.period,
    created_at: isoFromUtcText(row.created_at),
    updated_at: isoFromUtcText(row.updated_at),
    source: row.from_chat
      ? { channel: row.source_channel, message_id: row.source_message_id }
      : null,
  };
}

export const onDateSql = (date: string) => Prisma.sql`date = ${date}::date`;
export const betweenSql = (start: string, end: string) =>
  Prisma.sql`date BETWEEN ${start}::date AND ${end}::date`;

/** Events matching every condition, by date, then id. */
export function selectEventsSql(
  config: Pick<Config, 'DATABASE_SCHEMA'>,
  conditions: Prisma.Sql[],
  limit?: number,
): Prisma.Sql {
  const where = conditions.length > 0 ? Prisma.join(conditions, ' AND ') : Prisma.sql`true`;
  // Ordered by the table's columns, not the text ones of the same names: the index then does it.
  return Prisma.sql`SELECT ${COLUMNS} FROM ${tableOf(config, 'calendar_event')} e WHERE ${where}
    ORDER BY e.date, e.id ${limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}`;
}

function checkRange(start: string | undefined, end: string | undefined): void {
  // YYYY-MM-DD strings compare like the dates they name.
  if (start !== undefined && end !== undefined && start > end) {
    throw invalidField('start', 'must not be after end');
  }
}

/**
 * Reads of events, in their wire form, ordered by date, then id (the order keyset paging walks).
 * Raw SQL through Prisma: findMany cost twice as much per row. "Today" comes from the injected
 * clock, in CALENDAR_TIMEZONE unless asked otherwise.
 */
export function createEventQueriesService({
  db,
  config,
  now,
}: {
  db: Db;
  config: Config;
  now: () => Date;
}) {
  async function select(conditions: Prisma.Sql[], limit?: number): Promise<EventResponse[]> {
    const rows = await db.$queryRaw<EventRow[]>(selectEventsSql(config, conditions, limit));
    return rows.map(toWire);
  }
  const onDate = (date: string) => select([onDateSql(date)]);

  return {
    onDate,

    byType: (type: string) => select([Prisma.sql`type = ${type}`]),

    range(start: string, end: string): Promise<EventResponse[]> {
      checkRange(start, end);
      return select([betweenSql(start, end)]);
    },

    nextDay(tz: string | undefined): Promise<EventResponse[]> {
      const zone = tz ?? config.CALENDAR_TIMEZONE;
      if (!isTimeZone(zone))
        throw invalidField('tz', 'must be an IANA time zone such as Europe/Paris');
      return onDate(addDays(dateInZone(now(), zone), 1));
    },

    /** Keyset paging on (date, id): every page costs one indexed range scan, however deep. */
    async page(query: ListQuery): Promise<EventPage> {
      checkRange(query.start, query.end);
      const conditions: Prisma.Sql[] = [];
      if (query.type !== undefined) conditions.push(Prisma.sql`type = ${query.type}`);
      if (query.period !== undefined) conditions.push(Prisma.sql`period = ${query.period}`);
      if (query.start !== undefined) conditions.push(Prisma.sql`date >= ${query.start}::date`);
      if (query.end !== undefined) conditions.push(Prisma.sql`date <= ${query.end}::date`);
      if (query.after_id !== undefined) {
        const last = await db.calendarEvent.findUnique({
          where: { id: query.after_id },
          select: { date: true },
        });
        if (!last) throw invalidField('after_id', 'matches no event; start again without it');
        conditions.push(
          Prisma.sql`(date, id) > (${fromDbDate(last.date)}::date, ${query.after_id})`,
        );
      }
      const rows = await select(conditions, query.limit + 1);
      const page = rows.slice(0, query.limit);
      return {
        events: page,
        nextAfterId: rows.length > query.limit ? page[page.length - 1].id : null,
      };
    },
  };
}
export type EventQueriesService = ReturnType<typeof createEventQueriesService>;
