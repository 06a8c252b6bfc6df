import type { Config } from '../config';
import type { Db, Tx } from '../db';
import { extractEvents, type ExtractResult, type IgnoredLine } from '../extraction';
import type { CalendarEvent } from '../generated/prisma/client';
import { notificationContent } from '../notifications/notification-content';
import type { Outbox } from '../notifications/outbox';
import { dateInZone, toDbDate } from '../time/calendar-days';
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

interface Claim {
  chatMessageId: number;
  /** The events of the message's previous text, now deleted. */
  replaced: CalendarEvent[] | null;
}

const byDateThenId = (a: CalendarEvent, b: CalendarEvent) =>
  a.date.getTime() - b.date.getTime() || a.id - b.id;

/**
 * Claims the message row; null when this exact content is stored already. Both steps are single
 * statements that the unique (channel, message_key) index arbitrates: of concurrent identical
 * posts, one inserts and the others wait for it, then find the same hash and change nothing.
 */
async function claimMessage(
  tx: Tx,
  identity: MessageIdentity,
  weekStart: Date,
): Promise<Claim | null> {
  const { channel, messageKey, messageId, contentHash } = identity;
  const [inserted] = await tx.chatMessage.createManyAndReturn({
    data: [{ channel, messageKey, messageId, contentHash, weekStart }],
    skipDuplicates: true,
    select: { id: true },
  });
  if (inserted) return { chatMessageId: inserted.id, replaced: null };
  const [changed] = await tx.chatMessage.updateManyAndReturn({
    where: { channel, messageKey, contentHash: { not: contentHash } },
    data: { contentHash, weekStart },
    select: { id: true },
  });
  if (!changed) return null;
  const replaced = await tx.calendarEvent.findMany({ where: { chatMessageId: changed.id } });
  await tx.calendarEvent.deleteMany({ where: { chatMessageId: changed.id } });
  return { chatMessageId: changed.id, replaced: replaced.sort(byDateThenId) };
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

  async function store(tx: Tx, identity: MessageIdentity, result: ExtractResult) {
    const claim = await claimMessage(tx, identity, toDbDate(result.weekStart));
    if (claim === null) return [];
    const created = await tx.calendarEvent.createManyAndReturn({
      data: result.events.map((event) => ({
        ...event,
        date: toDbDate(event.date),
        sourceChannel: sourceOf(identity).channel,
        sourceMessageId: identity.messageId,
        chatMessageId: claim.chatMessageId,
      })),
    });
    created.sort(byDateThenId);
    const source = sourceOf(identity);
    if (created.length > 0) {
      await outbox.enqueue(
        tx,
        notificationContent(claim.replaced ? 'replaced' : 'created', created, source),
      );
    } else if (claim.replaced) {
      await outbox.enqueue(tx, notificationContent('deleted', claim.replaced, source));
    }
    return created;
  }

  async function ingestWith(tx: Tx, input: ChatMessageInput): Promise<IngestResult> {
    const { result, identity } = read(input);
    const created = await store(tx, identity, result);
    return { weekStart: result.weekStart, created, ignoredLines: result.ignoredLines };
  }

  return {
    ingestWith,

    /** POST /add: the message is read before its transaction opens. */
    async ingest(body: AddMessageBody): Promise<IngestResult> {
      const { result, identity } = read({
        text: body.text,
        channel: body.channel ?? '',
        messageId: body.message_id ?? body.ts ?? null,
        weekStart: body.week_start ?? body.weekStartDate,
        period: body.period,
      });
      const created = await db.$transaction((tx) => store(tx, identity, result));
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
