import type { NoticeEvent } from '../notifications';

/**
 * The one row shape of an event, whichever statement read it: dates as `YYYY-MM-DD`, times as
 * ISO strings. Reads send text from Postgres and never build Date objects (two per row were
 * most of the CPU of a week's listing); the repository converts Prisma's results to it.
 */
export interface EventRow extends NoticeEvent {
  sourceChannel: string | null;
  sourceMessageId: string | null;
  /** Whether a chat message still holds the event (its source is shown only then). */
  fromChat: boolean;
  /** The revision calendar apps compare (iCalendar SEQUENCE): raised whenever `date` changes. */
  sequence: number;
  /** The RRULE of a recurring event (its master row; `date` is then its first day), else null. */
  rrule: string | null;
  /** The dates a recurring event skips; sorted. */
  exdates: string[];
  createdAt: string;
  updatedAt: string;
}

/**
 * The columns of an EventRow, from `calendar_event` or anything with its columns under `alias`.
 * Times come as Postgres prints a UTC timestamp. `single` is for rows known not to recur (the
 * single half of a listing, the ingest_chat_message function's rows): their recurrence columns
 * are NULL without being read.
 */
export function eventColumns(alias: string, single = false): string {
  const a = alias;
  // A single event's exceptions come as NULL, not '{}': parsing an empty array on every row of a
  // week's listing cost more than the rest of the row.
  const recurrence = single
    ? `NULL::text AS rrule, NULL::text[] AS exdates`
    : `${a}.rrule, ${a}.exdates::text[] AS exdates`;
  return `${recurrence}, ${a}.id, ${a}.date::text AS date, ${a}.title, ${a}.description, ${a}.type, ${a}.period,
    ${a}.source_channel AS "sourceChannel", ${a}.source_message_id AS "sourceMessageId",
    ${a}.chat_message_id IS NOT NULL AS "fromChat", ${a}.sequence,
    (${a}.created_at AT TIME ZONE 'UTC')::text AS "createdAt",
    (${a}.updated_at AT TIME ZONE 'UTC')::text AS "updatedAt"`;
}

/** `2025-03-03 09:30:00.12` (a UTC timestamp as Postgres prints it) → `2025-03-03T09:30:00.120Z`. */
export function isoFromUtcText(text: string): string {
  if (text[4] !== '-' || text.length > 23)
    return new Date(`${text.replace(' ', 'T')}Z`).toISOString();
  const fraction = text.length > 20 ? text.slice(20).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}

const NO_EXDATES: string[] = Object.freeze([]) as unknown as string[];

/** A row of `eventColumns` made an EventRow, in place (a week's listing has ~2 000 of them). */
export function eventRowFromSql(row: EventRow): EventRow {
  row.createdAt = isoFromUtcText(row.createdAt);
  row.updatedAt = isoFromUtcText(row.updatedAt);
  row.exdates ??= NO_EXDATES;
  return row;
}

/** Every list of events is ordered by date, then id: the order keyset paging walks. */
export const byDateThenId = (a: EventRow, b: EventRow) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id;
