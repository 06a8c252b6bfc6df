import type { Config } from '../config';
import type { Db } from '../db';
import { extractEvents, type ExtractedEvent, type IgnoredLine } from '../extraction';
import type { CalendarEvent } from '../generated/prisma/client';
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

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/**
 * Claims the message row and answers its id when its events must be (re)written, or null when
 * this exact content is stored already. Both steps are single statements that the unique
 * (channel, message_key) index arbitrates: of concurrent identical posts, one inserts and the
 * others wait for it, then find the same hash and change nothing.
 */
async function claimMessage(
  tx: Tx,
  identity: MessageIdentity,
  weekStart: Date,
): Promise<number | null> {
  const { channel, messageKey, messageId, contentHash } = identity;
  const [inserted] = await tx.chatMessage.createManyAndReturn({
    data: [{ channel, messageKey, messageId, contentHash, weekStart }],
    skipDuplicates: true,
    select: { id: true },
  });
  if (inserted) return inserted.id;
  const [changed] = await tx.chatMessage.updateManyAndReturn({
    where: { channel, messageKey, contentHash: { not: contentHash } },
    data: { contentHash, weekStart },
    select: { id: true },
  });
  if (!changed) return null;
  await tx.calendarEvent.deleteMany({ where: { chatMessageId: changed.id } });
  return changed.id;
}

/** Turns chat messages into events, once per message; a changed message replaces its events. */
export function createMessagesService({
  db,
  config,
  now,
}: {
  db: Db;
  config: Config;
  now: () => Date;
}) {
  const channelPeriods = parseChannelPeriods(config.CHANNEL_PERIODS);

  function store(identity: MessageIdentity, weekStart: string, events: ExtractedEvent[]) {
    return db.$transaction(async (tx) => {
      const chatMessageId = await claimMessage(tx, identity, toDbDate(weekStart));
      if (chatMessageId === null || events.length === 0) return [];
      const created = await tx.calendarEvent.createManyAndReturn({
        data: events.map((event) => ({
          ...event,
          date: toDbDate(event.date),
          sourceChannel: identity.channel === '' ? null : identity.channel,
          sourceMessageId: identity.messageId,
          chatMessageId,
        })),
      });
      return created.sort((a, b) => a.date.getTime() - b.date.getTime() || a.id - b.id);
    });
  }

  return {
    async ingest(body: AddMessageBody): Promise<IngestResult> {
      const channel = body.channel ?? '';
      const result = extractEvents({
        text: body.text,
        referenceDate: dateInZone(now(), config.CALENDAR_TIMEZONE),
        weekStart: body.week_start ?? body.weekStartDate,
        period: channelPeriods.get(channel) ?? body.period ?? null,
      });
      const identity = messageIdentity({
        channel,
        messageId: body.message_id ?? body.ts ?? null,
        weekStart: result.weekStart,
        text: body.text,
      });
      const created = await store(identity, result.weekStart, result.events);
      return { weekStart: result.weekStart, created, ignoredLines: result.ignoredLines };
    },
  };
}
export type MessagesService = ReturnType<typeof createMessagesService>;
