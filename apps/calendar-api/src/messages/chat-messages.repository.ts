import { qualified, runStatement, type Database, type Statement, type Tx } from '../db';
import { byDateThenId, eventColumns, eventRowFromSql, type EventRow } from '../events/event-row';
import { eventRowFromModel } from '../events/events.repository';
import type { ExtractedEvent } from '../extraction';
import type { MessageIdentity } from './message-identity';

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
type IngestRow = EventRow & {
  change: 'inserted' | 'updated' | 'stale' | 'replaced' | 'created';
};

/**
 * The call of the ingest_chat_message SQL function (see its migration): it claims the message
 * and writes its events in one round trip. Its arguments and the columns read back are here
 * only.
 */
export function ingestStatement(
  schema: string,
  identity: MessageIdentity,
  weekStart: string,
  events: ExtractedEvent[],
  version: string | null,
): Statement {
  const { channel, messageKey, messageId, contentHash } = identity;
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

/** Every query of chat_message, with the events it owns. */
export function createChatMessagesRepository(db: Database) {
  return {
    /**
     * Claims the message and stores its events, replacing those of a previous text. Of
     * concurrent identical posts, the unique (channel, message_key) index lets one insert; the
     * others find the same hash and change nothing. A `version` (Slack's edited.ts or ts) older
     * than the stored one changes nothing either. Without `tx`, the one statement needs no
     * transaction around it.
     */
    async store(
      tx: Tx | null,
      identity: MessageIdentity,
      message: { weekStart: string; events: ExtractedEvent[]; version: string | null },
    ): Promise<StoreResult> {
      const { weekStart, events, version } = message;
      const statement = ingestStatement(db.schema, identity, weekStart, events, version);
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

    /** Forgets the message and deletes its events; null when no such message is stored. */
    async remove(tx: Tx, channel: string, messageKey: string): Promise<EventRow[] | null> {
      const message = await tx.chatMessage.findUnique({
        where: { channel_messageKey: { channel, messageKey } },
        include: { events: true },
      });
      if (!message) return null;
      await tx.chatMessage.delete({ where: { id: message.id } });
      return message.events.map(eventRowFromModel).sort(byDateThenId);
    },
  };
}
