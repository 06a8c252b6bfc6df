import type { Tx } from '../db';

/**
 * Every query of chat_message but its claim, which ingest_chat_message makes with the message's
 * events (the events repository's ingestChatMessage). Each runs in the caller's transaction.
 */
export function createChatMessagesRepository() {
  return {
    /** The stored message's id; null when no such message is stored. */
    async find(tx: Tx, channel: string, messageKey: string): Promise<number | null> {
      const message = await tx.chatMessage.findUnique({
        where: { channel_messageKey: { channel, messageKey } },
        select: { id: true },
      });
      return message?.id ?? null;
    },

    /** Forgets the message; its events are the events repository's to delete first. */
    async remove(tx: Tx, id: number): Promise<void> {
      await tx.chatMessage.deleteMany({ where: { id } });
    },
  };
}
