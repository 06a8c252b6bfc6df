/** The parts of Slack's Events API payloads this service reads; everything else is kept as sent. */
interface SlackMessage {
  type?: string;
  subtype?: string;
  text?: string;
  ts?: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  /** On an edited message: when it was last edited. */
  edited?: { ts?: string };
}

interface SlackEvent extends SlackMessage {
  channel?: string;
  /** message_changed: the message as it is now (its `ts` is the original one). */
  message?: SlackMessage;
  previous_message?: SlackMessage;
  /** message_deleted */
  deleted_ts?: string;
}

export interface SlackEnvelope {
  type?: string;
  challenge?: string;
  event_id?: string;
  api_app_id?: string;
  event?: SlackEvent;
}

export type SlackAction =
  | { kind: 'challenge'; challenge: string }
  | {
      kind: 'upsert';
      eventId: string;
      channel: string;
      ts: string;
      text: string;
      /** Which version of the message this is: `edited.ts`, else `ts`; undefined if unreadable. */
      version: string | undefined;
    }
  | { kind: 'delete'; eventId: string; channel: string; ts: string }
  | { kind: 'ignore'; reason: string };

/** Message subtypes that are people posting: anything else (joins, topics, bots) is not a plan. */
const POSTED_SUBTYPES = new Set([undefined, 'thread_broadcast', 'file_share', 'me_message']);

const isString = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Bots and apps, this service's own posts (through its incoming webhook or its app) included. */
function fromBot(message: SlackMessage | undefined, ownAppId: string | undefined): boolean {
  if (!message) return false;
  if (message.bot_id || message.subtype === 'bot_message') return true;
  return ownAppId !== undefined && message.app_id === ownAppId;
}

function messageAction(envelope: SlackEnvelope, eventId: string, event: SlackEvent): SlackAction {
  const channel = event.channel;
  if (!isString(channel)) return { kind: 'ignore', reason: 'message event without a channel' };
  const own = envelope.api_app_id;
  if (event.subtype === 'message_changed') {
    const message = event.message;
    if (fromBot(message, own)) return { kind: 'ignore', reason: 'a bot message was edited' };
    if (!isString(message?.ts))
      return { kind: 'ignore', reason: 'message_changed without message.ts' };
    const version = versionOf(message.edited?.ts ?? message.ts);
    return { kind: 'upsert', eventId, channel, ts: message.ts, text: message.text ?? '', version };
  }
  if (event.subtype === 'message_deleted') {
    if (fromBot(event.previous_message, own))
      return { kind: 'ignore', reason: 'a bot message was deleted' };
    const ts = event.deleted_ts ?? event.previous_message?.ts;
    if (!isString(ts)) return { kind: 'ignore', reason: 'message_deleted without deleted_ts' };
    return { kind: 'delete', eventId, channel, ts };
  }
  if (fromBot(event, own)) return { kind: 'ignore', reason: 'bot message' };
  if (!POSTED_SUBTYPES.has(event.subtype)) {
    return { kind: 'ignore', reason: `message subtype ${event.subtype}` };
  }
  if (!isString(event.ts)) return { kind: 'ignore', reason: 'message without ts' };
  const version = versionOf(event.ts);
  return { kind: 'upsert', eventId, channel, ts: event.ts, text: event.text ?? '', version };
}

/** Slack timestamps are seconds with a 6-digit sequence: compared as the numbers they are. */
const SLACK_TS = /^\d{1,14}(?:\.\d{1,6})?$/;
const versionOf = (ts: string | undefined) =>
  ts !== undefined && SLACK_TS.test(ts) ? ts : undefined;

/**
 * What a (signature-checked) Events API payload asks for. Pure: the route calls it to decide
 * what to store, the inbox worker to decide what to do with what was stored.
 */
export function interpretSlackPayload(payload: unknown): SlackAction {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { kind: 'ignore', reason: 'not a JSON object' };
  }
  const envelope = payload as SlackEnvelope;
  if (envelope.type === 'url_verification' && isString(envelope.challenge)) {
    return { kind: 'challenge', challenge: envelope.challenge };
  }
  if (envelope.type !== 'event_callback')
    return { kind: 'ignore', reason: `type ${envelope.type}` };
  const event = envelope.event;
  if (event?.type !== 'message') return { kind: 'ignore', reason: `event ${event?.type}` };
  if (!isString(envelope.event_id)) return { kind: 'ignore', reason: 'event without event_id' };
  return messageAction(envelope, envelope.event_id, event);
}

/** When a Slack message was posted: its `ts` is Unix seconds with a sequence suffix. */
export function slackTsToDate(ts: string): Date | null {
  const seconds = Number(ts);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(Math.floor(seconds * 1000)) : null;
}
