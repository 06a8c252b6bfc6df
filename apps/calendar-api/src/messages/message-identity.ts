import { hash } from 'node:crypto';

export interface MessageIdentity {
  /** "" for a message posted without a channel. */
  channel: string;
  messageId: string | null;
  /** Unique per channel: the message id, else `sha256:` and the content hash. */
  messageKey: string;
  /** SHA-256 of channel, week and text; a repost with the same hash changes nothing. */
  contentHash: string;
}

/**
 * Who a message is: its channel and id when it has one, else what it says. Hashing a JSON array
 * keeps the parts apart ("a" + "bc" and "ab" + "c" differ).
 */
export function messageIdentity(input: {
  channel: string;
  messageId: string | null;
  weekStart: string;
  text: string;
}): MessageIdentity {
  const contentHash = hash(
    'sha256',
    JSON.stringify([input.channel, input.weekStart, input.text]),
    'hex',
  );
  return {
    channel: input.channel,
    messageId: input.messageId,
    messageKey: input.messageId ?? `sha256:${contentHash}`,
    contentHash,
  };
}
