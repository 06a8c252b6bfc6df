import { qualified, type Statement } from '../db';
import type { ExtractedEvent } from '../extraction';
import { byDateThenId, eventColumns, eventRowFromSql, type EventRow } from './event-row';

/** A chat message's events as extraction read them, and who the message is. */
export interface ChatMessageEvents {
  /** "" for a message posted without a channel. */
  channel: string;
  messageKey: string;
  messageId: string | null;
  contentHash: string;
  weekStart: string;
  events: ExtractedEvent[];
  /** Which version of the message this is (Slack's edited.ts, else ts); null: unversioned. */
  version: string | null;
}

export interface StoredMessage {
  created: EventRow[];
  /** The events of the message's previous text, now deleted; null for a new message. */
  replaced: EventRow[] | null;
}

/** unchanged: this exact content is stored already; stale: a newer version of it is. */
export type StoreResult = StoredMessage | 'unchanged' | 'stale';

/**
 * A row of ingest_chat_message: the claim ('inserted', 'updated', or 'stale' alone), or an
 * event of the message.
 */
export type IngestRow = EventRow & {
  change: 'inserted' | 'updated' | 'stale' | 'replaced' | 'created';
};

/**
 * The call of the ingest_chat_message SQL function (prisma/calendar-api/functions/): it claims the message
 * and writes its events in one round trip. Its arguments and the columns read back are here
 * only; the events repository is its one caller.
 */
export function ingestStatement(schema: string, message: ChatMessageEvents): Statement {
  const { channel, messageKey, messageId, contentHash, weekStart, events, version } = message;
  return {
    name: 'calendar_ingest_chat_message',
    text: `SELECT e.change, ${eventColumns('e', true)}
      FROM ${qualified(schema, 'ingest_chat_message')}($1, $2, $3, $4, $5::date, $6::date[],
           $7::text[], $8::text[], $9::text[], $10::text[], $11::numeric) e`,
    values: [
      channel,
      messageKey,
      messageId,
      contentHash,
      weekStart,
      events.map((e) => e.date),
      events.map((e) => e.title),
      events.map((e) => e.description),
      events.map((e) => e.type),
      events.map((e) => e.period),
      version,
    ],
  };
}

/** What the function's rows say: nothing stored, a stale version, or the events it wrote. */
export function storeResult(rows: IngestRow[]): StoreResult {
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
}
