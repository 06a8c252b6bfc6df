import type { Db } from '../db';
import type { Prisma } from '../generated/prisma/client';
import { interpretSlackPayload } from './slack-event';

export type SlackReceipt =
  { challenge: string } | { status: 'recorded' | 'duplicate' | 'ignored'; reason?: string };

/**
 * The request side of the Slack Events API: one insert, so Slack gets its answer well within
 * 3 seconds whatever the message. The unique event_id turns Slack's retries into no-ops.
 */
export function createSlackEventsService({ db, onRecorded }: { db: Db; onRecorded: () => void }) {
  return {
    async receive(payload: unknown): Promise<SlackReceipt> {
      const action = interpretSlackPayload(payload);
      if (action.kind === 'challenge') return { challenge: action.challenge };
      if (action.kind === 'ignore') return { status: 'ignored', reason: action.reason };
      const { count } = await db.slackInbox.createMany({
        data: [
          {
            eventId: action.eventId,
            channel: action.channel,
            messageTs: action.ts,
            payload: payload as Prisma.InputJsonObject,
          },
        ],
        skipDuplicates: true,
      });
      if (count === 0) return { status: 'duplicate' };
      onRecorded();
      return { status: 'recorded' };
    },
  };
}
export type SlackEventsService = ReturnType<typeof createSlackEventsService>;
