import type { Config } from '../config';
import { tableOf, type Db, type Tx } from '../db';
import { extractEvents, type ExtractResult, type IgnoredLine } from '../extraction';
import type { CalendarEvent, Prisma } from '../generated/prisma/client';
import {
  notificationContent,
  type NotificationContent,
} from '../notifications/notification-content';
import type { Outbox } from '../notifications/outbox';
import { dateInZone } from '../time/calendar-days';
import { parseChannelPeriods } from './channel-periods';
import { messageIdentity, type MessageIdentity } from './message-identity';
import type { AddMessageBody } from './messages.schemas';

export interface IngestResult {
  weekStart: string;
  /** Empty when the message was stored already, unchanged, or names no event. */
  created: CalendarEvent[];
  ignoredLines: IgnoredLine[];
}

/** A chat message however it arrived: POST /add or the Slack inbox. */
export interface ChatMessageInput {
  text: string;
  /** "" when it came without one. */
  channel: string;
  messageId: string | null;
  weekStart?: string;
  period?: string;
  /** When it was posted; "today" for reading it otherwise. */
  postedAt?: Date;
}

/** A row of ingest_chat_message: the claim ('inserted' or 'updated'), or an event of the message. */
type IngestRow = CalendarEvent & { change: 'inserted' | 'updated' | 'replaced' | 'created' };

interface Stored {
  created: CalendarEvent[];
  /** The events of the message's previous text, now deleted; null for a new message. */
  replaced: CalendarEvent[] | null;
}

const byDateThenId = (a: CalendarEvent, b: CalendarEvent) =>
  a.date.getTime() - b.date.getTime() || a.id - b.id;

/**
 * Claims the message and writes its events in one round trip (a SQL function, see its
 * migration); null when this exact content is stored already. Of concurrent identical posts,
 * the unique (channel, message_key) index lets one insert; the others find the same hash and
 * change nothing.
 */
async function claimAndStore(
  client: Db | Tx,
  ingest: Prisma.Sql,
  identity: MessageIdentity,
  result: ExtractResult,
): Promise<Stored | null> {
  const { channel, messageKey, messageId, contentHash } = identity;
  const events = result.events;
  const rows = await client.$queryRaw<IngestRow[]>`
    SELECT change, id, date, title, description, type, period, source_channel AS "sourceChannel",
           source_message_id AS "sourceMessageId", chat_message_id AS "chatMessageId",
           created_at AS "createdAt", updated_at AS "updatedAt"
    FROM ${ingest}(${channel}, ${messageKey}, ${messageId}, ${contentHash}, ${result.weekStart}::date,
                   ${events.map((e) => e.date)}::date[], ${events.map((e) => e.title)}::text[],
                   ${events.map((e) => e.description)}::text[], ${events.map((e) => e.type)}::text[],
                   ${events.map((e) => e.period)}::text[])`;
  if (rows.length === 0) return null;
  const of = (change: IngestRow['change']) =>
    rows
      .filter((row) => row.change === change)
      .map(({ change: _, ...event }) => event)
      .sort(byDateThenId);
  return { created: of('created'), replaced: rows[0].change === 'updated' ? of('replaced') : null };
}

/**
 * Turns chat messages into events, once per message; a changed message replaces its events, a
 * deleted one loses them. Each change is one transaction with its notification.
 */
export function createMessagesService({
  db,
  config,
  now,
  outbox,
}: {
  db: Db;
  config: Config;
  now: () => Date;
  outbox: Outbox;
}) {
  const channelPeriods = parseChannelPeriods(config.CHANNEL_PERIODS);
  const ingest = tableOf(config, 'ingest_chat_message');
  const sourceOf = (identity: MessageIdentity) => ({
    channel: identity.channel === '' ? null : identity.channel,
    message_id: identity.messageId,
  });

  function read(input: ChatMessageInput) {
    const result = extractEvents({
      text: input.text,
      referenceDate: dateInZone(input.postedAt ?? now(), config.CALENDAR_TIMEZONE),
      weekStart: input.weekStart,
      period: channelPeriods.get(input.channel) ?? input.period ?? null,
    });
    const identity = messageIdentity({ ...input, weekStart: result.weekStart });
    return { result, identity };
  }

  function noticeOf(stored: Stored, identity: MessageIdentity): NotificationContent | null {
    const source = sourceOf(identity);
    if (stored.created.length > 0) {
      return notificationContent(stored.replaced ? 'replaced' : 'created', stored.created, source);
    }
    return stored.replaced ? notificationContent('deleted', stored.replaced, source) : null;
  }

  /** Saves the events; the notification, if a target is configured, in the same transaction. */
  async function save(tx: Tx | null, identity: MessageIdentity, result: ExtractResult) {
    // Nothing to record beside the one statement: it needs no transaction around it.
    if (tx === null && !outbox.records) {
      return (await claimAndStore(db, ingest, identity, result))?.created ?? [];
    }
    const write = async (client: Tx) => {
      const stored = await claimAndStore(client, ingest, identity, result);
      const notice = stored && noticeOf(stored, identity);
      if (notice) await outbox.enqueue(client, notice);
      return stored?.created ?? [];
    };
    return tx === null ? db.$transaction(write) : write(tx);
  }

  async function ingestWith(tx: Tx, input: ChatMessageInput): Promise<IngestResult> {
    const { result, identity } = read(input);
    const created = await save(tx, identity, result);
    return { weekStart: result.weekStart, created, ignoredLines: result.ignoredLines };
  }

  return {
    ingestWith,

    /** POST /add: the message is read before anything is written. */
    async ingest(body: AddMessageBody): Promise<IngestResult> {
      const { result, identity } = read({
        text: body.text,
        channel: body.channel ?? '',
        messageId: body.message_id ?? body.ts ?? null,
        weekStart: body.week_start ?? body.weekStartDate,
        period: body.period,
      });
      const created = await save(null, identity, result);
      return { weekStart: result.weekStart, created, ignoredLines: result.ignoredLines };
    },

    /** A message deleted in the chat: its events go, and the message is forgotten. */
    async removeWith(tx: Tx, channel: string, messageId: string): Promise<CalendarEvent[]> {
      const message = await tx.chatMessage.findUnique({
        where: { channel_messageKey: { channel, messageKey: messageId } },
        include: { events: true },
      });
      if (!message) return [];
      await tx.chatMessage.delete({ where: { id: message.id } });
      const removed = message.events.sort(byDateThenId);
      await outbox.enqueue(
        tx,
        notificationContent('deleted', removed, {
          channel: channel || null,
          message_id: messageId,
        }),
      );
      return removed;
    },
  };
}
export type MessagesService = ReturnType<typeof createMessagesService>;
