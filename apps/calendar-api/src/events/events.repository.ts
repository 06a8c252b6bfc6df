import { fromDbDate, toDbDate } from '../domain';
import type { Series } from './recurrence';
import { qualified, runStatement, type Database, type Tx } from '../db';
import type { CalendarEvent, Prisma } from '../generated/prisma/client';
import {
  ingestStatement,
  storeResult,
  type ChatMessageEvents,
  type IngestRow,
  type StoreResult,
} from './chat-ingest.sql';
import { byDateThenId, eventColumns, eventRowFromSql, type EventRow } from './event-row';
import {
  lockStatement,
  selectEventsStatement,
  type EventFilter,
  type LockTarget,
} from './events.sql';

export type { ChatMessageEvents, StoredMessage, StoreResult } from './chat-ingest.sql';
export type { EventFilter, LockTarget } from './events.sql';

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
     * per second at half the CPU of four statements in a transaction
     * (docs/decisions/0002-sql-ingest-function.md). Of concurrent identical
     * posts the unique (channel, message_key) index lets one claim it; the others find the same
     * hash and change nothing, as does a `version` (Slack's edited.ts or ts) older than the
     * stored one. Without `tx`, the one statement needs no transaction around it.
     */
    async ingestChatMessage(tx: Tx | null, message: ChatMessageEvents): Promise<StoreResult> {
      const statement = ingestStatement(db.schema, message);
      return storeResult(await runStatement<IngestRow>(db, statement, tx ?? undefined));
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
