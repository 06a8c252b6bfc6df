import { fromDbDate, toDbDate } from '../domain/calendar-days';
import type { Series } from '../domain/recurrence';
import { qualified, runStatement, type Database, type Statement, type Tx } from '../db';
import type { CalendarEvent, Prisma } from '../generated/prisma/client';
import { ingestStatement, type ChatMessageEvents, type IngestRow } from './chat-ingest.sql';
import { byDateThenId, eventColumns, eventRowFromSql, type EventRow } from './event-row';

export type { ChatMessageEvents } from './chat-ingest.sql';

export interface StoredMessage {
  created: EventRow[];
  /** The events of the message's previous text, now deleted; null for a new message. */
  replaced: EventRow[] | null;
}

/** unchanged: this exact content is stored already; stale: a newer version of it is. */
export type StoreResult = StoredMessage | 'unchanged' | 'stale';

/** Which events a read wants; every condition given must hold. */
export interface EventFilter {
  date?: string;
  /** Inclusive bounds. */
  start?: string;
  end?: string;
  type?: string;
  period?: string;
  /** Keyset paging: only events after this one in (date, id) order. */
  after?: { date: string; id: number };
  limit?: number;
}

export interface NewEvent {
  date: string;
  title: string;
  description?: string;
  type?: string;
  period?: string | null;
  /** How the event repeats; null (or absent) for a single event. */
  series?: Series | null;
}
export type EventChanges = Partial<NewEvent>;

const ORDER = [
  { date: 'asc' },
  { id: 'asc' },
] satisfies Prisma.CalendarEventOrderByWithRelationInput[];

/**
 * The read of events matching `filter` in one round trip: the single events, by date, then id
 * (the `(date, id)` index; `limit` applies to them), then the recurring events whose series can
 * have an occurrence matching it, found from their first and last days (`(series_end, date)`
 * index) and expanded by the caller. Its text depends only on which conditions are present, so
 * each shape is one named statement, prepared once per connection.
 */
export function selectEventsStatement(schema: string, filter: EventFilter): Statement {
  const values: unknown[] = [];
  const shape: string[] = [];
  const singles = ['e.rrule IS NULL'];
  const series = ['e.rrule IS NOT NULL'];
  const add = (key: string, given: unknown[], single: string | null, recurring: string | null) => {
    const at = given.map((value) => `$${values.push(value)}`);
    const fill = (sql: string) => sql.replace(/\$(\d)/g, (_, n: string) => at[Number(n)]);
    if (single !== null) singles.push(fill(single));
    if (recurring !== null) series.push(fill(recurring));
    shape.push(key);
  };
  const { date, start, end, type, period, after } = filter;
  if (date !== undefined) {
    add('date', [date], 'e.date = $0::date', 'e.series_end >= $0::date AND e.date <= $0::date');
  }
  if (start !== undefined) add('start', [start], 'e.date >= $0::date', 'e.series_end >= $0::date');
  if (end !== undefined) add('end', [end], 'e.date <= $0::date', 'e.date <= $0::date');
  if (type !== undefined) add('type', [type], 'e.type = $0', 'e.type = $0');
  if (period !== undefined) add('period', [period], 'e.period = $0', 'e.period = $0');
  if (after !== undefined) {
    add('after', [after.date, after.id], '(e.date, e.id) > ($0::date, $1::integer)', null);
    series.push(`e.series_end >= $${values.length - 1}::date`);
  }
  const table = qualified(schema, 'calendar_event');
  // Ordered by the table's columns, not the text ones of the same names: the index then does it.
  let first = `SELECT ${eventColumns('e', true)} FROM ${table} e
    WHERE ${singles.join(' AND ')} ORDER BY e.date, e.id`;
  if (filter.limit !== undefined) {
    first += ` LIMIT $${values.push(filter.limit)}::integer`;
    shape.push('limit');
  }
  const text = `(${first}) UNION ALL (SELECT ${eventColumns('e')} FROM ${table} e
    WHERE ${series.join(' AND ')})`;
  return { name: `calendar_events_${shape.join('_') || 'all'}`, text, values };
}

/** A row as Prisma reads it, made an EventRow. */
export function eventRowFromModel(event: CalendarEvent): EventRow {
  return {
    id: event.id,
    date: fromDbDate(event.date),
    title: event.title,
    description: event.description,
    type: event.type,
    period: event.period,
    sourceChannel: event.sourceChannel,
    sourceMessageId: event.sourceMessageId,
    fromChat: event.chatMessageId !== null,
    sequence: event.sequence,
    rrule: event.rrule,
    exdates: event.exdates.map(fromDbDate),
    createdAt: event.createdAt.toISOString(),
    updatedAt: event.updatedAt.toISOString(),
  };
}

/** A recurrence's columns; all null (and no exception) for a single event. */
function seriesData(series: Series | null | undefined) {
  if (series === undefined) return {};
  return {
    rrule: series?.rrule ?? null,
    exdates: (series?.exdates ?? []).map(toDbDate),
    seriesEnd: series ? toDbDate(series.seriesEnd) : null,
  };
}

function changesData({ series, ...changes }: EventChanges): Prisma.CalendarEventUpdateInput {
  return {
    ...seriesData(series),
    date: changes.date === undefined ? undefined : toDbDate(changes.date),
    title: changes.title,
    description: changes.description,
    type: changes.type,
    period: changes.period,
  };
}

/** Only while the row still holds every field of `expected`: a compare-and-swap. */
function unchangedSince(id: number, expected: EventRow | null): Prisma.CalendarEventWhereInput {
  if (expected === null) return { id };
  return {
    id,
    date: toDbDate(expected.date),
    title: expected.title,
    description: expected.description,
    type: expected.type,
    period: expected.period,
    rrule: expected.rrule,
    exdates: { equals: expected.exdates.map(toDbDate) },
    sourceChannel: expected.sourceChannel,
    sourceMessageId: expected.sourceMessageId,
    chatMessageId: expected.fromChat ? { not: null } : null,
    createdAt: new Date(expected.createdAt),
    updatedAt: new Date(expected.updatedAt),
  };
}

const byTitle = (title: string, date: string | undefined): Prisma.CalendarEventWhereInput =>
  date === undefined ? { title } : { title, date: toDbDate(date) };

/** The events an edit is about, locked until its transaction ends: by id, or by title (and date). */
function lockStatement(schema: string, target: LockTarget): Statement {
  const from = `SELECT ${eventColumns('e')} FROM ${qualified(schema, 'calendar_event')} e`;
  if ('id' in target) {
    const text = `${from} WHERE e.id = $1 FOR UPDATE`;
    return { name: 'calendar_event_lock_id', text, values: [target.id] };
  }
  const onDate = target.date === undefined ? '' : ' AND e.date = $2::date';
  return {
    name: `calendar_event_lock_title${onDate === '' ? '' : '_date'}`,
    text: `${from} WHERE e.title = $1${onDate} ORDER BY e.date, e.id FOR UPDATE`,
    values: target.date === undefined ? [target.title] : [target.title, target.date],
  };
}
export type LockTarget = { id: number } | { title: string; date: string | undefined };

/**
 * Every query of calendar_event. Reads run as prepared statements on the pool; writes through
 * Prisma, and a chat message's through the ingest_chat_message function.
 */
export function createEventsRepository(db: Database) {
  const events = db.prisma.calendarEvent;
  return {
    /**
     * Stores a chat message's events, replacing those of its previous text, in one round trip:
     * ingest_chat_message claims the message's chat_message row and writes its events. It is
     * the one writer of another table here, kept because one statement took 1.6× the messages
     * per second at half the CPU of four statements in a transaction (bench/README.md,
     * "ingest_chat_message against the repository's own statements"). Of concurrent identical
     * posts the unique (channel, message_key) index lets one claim it; the others find the same
     * hash and change nothing, as does a `version` (Slack's edited.ts or ts) older than the
     * stored one. Without `tx`, the one statement needs no transaction around it.
     */
    async ingestChatMessage(tx: Tx | null, message: ChatMessageEvents): Promise<StoreResult> {
      const statement = ingestStatement(db.schema, message);
      const rows = await runStatement<IngestRow>(db, statement, tx ?? undefined);
      if (rows.length === 0) return 'unchanged';
      if (rows[0].change === 'stale') return 'stale';
      const of = (change: IngestRow['change']) =>
        rows
          .filter((row) => row.change === change)
          .map(({ change: _, ...event }) => eventRowFromSql(event))
          .sort(byDateThenId);
      return {
        created: of('created'),
        replaced: rows[0].change === 'updated' ? of('replaced') : null,
      };
    },

    /** Deletes the events of a chat message (it is being forgotten), by date, then id. */
    async removeOfMessage(tx: Tx, chatMessageId: number): Promise<EventRow[]> {
      const removed = await runStatement<EventRow>(
        db,
        {
          text: `DELETE FROM ${qualified(db.schema, 'calendar_event')} e
                 WHERE e.chat_message_id = $1::integer RETURNING ${eventColumns('e')}`,
          values: [chatMessageId],
        },
        tx,
      );
      return removed.map(eventRowFromSql).sort(byDateThenId);
    },

    /**
     * The single events `filter` matches, by date, then id, followed by the recurring ones (their
     * master rows, `rrule` set) that can have occurrences it matches: see `withOccurrences`.
     */
    async select(filter: EventFilter): Promise<EventRow[]> {
      const rows = await runStatement<EventRow>(db, selectEventsStatement(db.schema, filter));
      return rows.map(eventRowFromSql);
    },

    async find(id: number): Promise<EventRow | null> {
      const event = await events.findUnique({ where: { id } });
      return event && eventRowFromModel(event);
    },

    async dateOf(id: number): Promise<string | null> {
      return (await this.find(id))?.date ?? null;
    },

    async create({ series, ...event }: NewEvent): Promise<EventRow> {
      const data = { ...event, ...seriesData(series), date: toDbDate(event.date) };
      return eventRowFromModel(await events.create({ data }));
    },

    /** null when no row matched (gone, or changed since `expected`). */
    async update(
      tx: Tx,
      id: number,
      expected: EventRow | null,
      changes: EventChanges,
    ): Promise<EventRow | null> {
      const [updated] = await tx.calendarEvent.updateManyAndReturn({
        where: unchangedSince(id, expected),
        data: changesData(changes),
      });
      return updated ? eventRowFromModel(updated) : null;
    },

    /** The deleted event; null when no row matched (gone, or changed since `expected`). */
    async remove(tx: Tx, id: number, expected: EventRow | null): Promise<EventRow | null> {
      const where = unchangedSince(id, expected);
      const event = await tx.calendarEvent.findFirst({ where });
      const { count } = await tx.calendarEvent.deleteMany({ where });
      return event && count === 1 ? eventRowFromModel(event) : null;
    },

    /** The events as they are before an edit, locked (FOR UPDATE) so that none changes meanwhile. */
    async lockForEdit(tx: Tx, target: LockTarget): Promise<EventRow[]> {
      const rows = await runStatement<EventRow>(db, lockStatement(db.schema, target), tx);
      return rows.map(eventRowFromSql);
    },

    /** These events (locked by lockForEdit), changed in one statement. */
    async updateMany(tx: Tx, ids: number[], changes: EventChanges): Promise<EventRow[]> {
      const updated = await tx.calendarEvent.updateManyAndReturn({
        where: { id: { in: ids } },
        data: changesData(changes),
      });
      return updated.map(eventRowFromModel);
    },

    async removeByTitle(
      tx: Tx,
      title: string,
      date: string | undefined,
    ): Promise<{ count: number; events: EventRow[] }> {
      const found = await tx.calendarEvent.findMany({
        where: byTitle(title, date),
        orderBy: ORDER,
      });
      if (found.length === 0) return { count: 0, events: [] };
      const { count } = await tx.calendarEvent.deleteMany({
        where: { id: { in: found.map((e) => e.id) } },
      });
      return { count, events: found.map(eventRowFromModel) };
    },
  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
