import type { Config } from '../config';
import type { Database, Tx } from '../db';
import {
  createEventsRepository,
  type EventRow,
  type StoredMessage,
  type StoreResult,
} from '../events';
import {
  extractEvents,
  MessageRejectedError,
  type ExtractResult,
  type IgnoredLine,
} from '../extraction';
import { invalidField } from '../errors';
import { notificationContent, type NotificationContent, type Outbox } from '../notifications';
import { dateInZone, parseChannelPeriods } from '../domain';
import { createChatMessagesRepository } from './chat-messages.repository';
import { messageIdentity, type MessageIdentity } from './message-identity';
import type { AddMessageBody } from './messages.schemas';

export interface IngestResult {
  weekStart: string;
  /** Empty when the message was stored already, unchanged, or names no event. */
  created: EventRow[];
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
  /** Which version of the message this is (Slack's edited.ts, else ts); an older one is not stored. */
  version?: string;
}

export const STALE_VERSION_REASON =
  'an older version of the message than the one stored (a late delivery)';

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
  db: Database;
  config: Config;
  now: () => Date;
  outbox: Outbox;
}) {
  const channelPeriods = parseChannelPeriods(config.CHANNEL_PERIODS);
  const events = createEventsRepository(db);
  const chatMessages = createChatMessagesRepository();
  const claimAndStore = (
    tx: Tx | null,
    identity: MessageIdentity,
    result: ExtractResult,
    version: string | null,
  ) => events.ingestChatMessage(tx, { ...identity, ...result, version });
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

  function readOrRefuse(input: ChatMessageInput) {
    try {
      return read(input);
    } catch (error) {
      if (!(error instanceof MessageRejectedError)) throw error;
      throw invalidField('text', `${error.reason}: "${error.line}"; nothing was stored`);
    }
  }

  function noticeOf(stored: StoredMessage, identity: MessageIdentity): NotificationContent | null {
    const source = sourceOf(identity);
    if (stored.created.length > 0) {
      return notificationContent(stored.replaced ? 'replaced' : 'created', stored.created, source);
    }
    return stored.replaced ? notificationContent('deleted', stored.replaced, source) : null;
  }

  /** Saves the events; the notification, if a target is configured, in the same transaction. */
  async function save(
    tx: Tx | null,
    identity: MessageIdentity,
    result: ExtractResult,
    version: string | null = null,
  ): Promise<StoreResult> {
    // Nothing to record beside the one statement: it needs no transaction around it.
    if (tx === null && !outbox.records) return claimAndStore(null, identity, result, version);
    const write = async (client: Tx) => {
      const stored = await claimAndStore(client, identity, result, version);
      const notice = typeof stored === 'string' ? null : noticeOf(stored, identity);
      if (notice) await outbox.enqueue(client, notice);
      return stored;
    };
    return tx === null ? db.transaction(write) : write(tx);
  }

  const createdBy = (stored: StoreResult) => (typeof stored === 'string' ? [] : stored.created);

  return {
    /**
     * A chat message from the Slack inbox, in the inbox's transaction. Answers why it was left
     * without effect (it cannot be read without guessing, or a newer version is stored), or null.
     */
    async ingestWith(tx: Tx, input: ChatMessageInput): Promise<string | null> {
      let message: ReturnType<typeof read>;
      try {
        message = read(input);
      } catch (error) {
        if (error instanceof MessageRejectedError) return error.message;
        throw error;
      }
      const stored = await save(tx, message.identity, message.result, input.version ?? null);
      return stored === 'stale' ? STALE_VERSION_REASON : null;
    },

    /** POST /add: the message is read before anything is written; one it cannot read is a 400. */
    async ingest(body: AddMessageBody): Promise<IngestResult> {
      const { result, identity } = readOrRefuse({
        text: body.text,
        channel: body.channel ?? '',
        messageId: body.message_id ?? body.ts ?? null,
        weekStart: body.week_start ?? body.weekStartDate,
        period: body.period,
      });
      const created = createdBy(await save(null, identity, result));
      return { weekStart: result.weekStart, created, ignoredLines: result.ignoredLines };
    },

    /** A message deleted in the chat: its events go, and the message is forgotten. */
    async removeWith(tx: Tx, channel: string, messageId: string): Promise<EventRow[]> {
      const id = await chatMessages.find(tx, channel, messageId);
      if (id === null) return [];
      const removed = await events.removeOfMessage(tx, id);
      await chatMessages.remove(tx, id);
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
