import type { Database } from '../db';
import { interpretSlackPayload } from './slack-event';
import { createSlackInboxRepository } from './slack-inbox.repository';

export type SlackReceipt =
  { challenge: string } | { status: 'recorded' | 'duplicate' | 'ignored'; reason?: string };

/**
 * The request side of the Slack Events API: one insert, so Slack gets its answer well within
 * 3 seconds whatever the message. The unique event_id turns Slack's retries into no-ops.
 */
export function createSlackEventsService({
  db,
  onRecorded,
}: {
  db: Database;
  onRecorded: () => void;
}) {
  const inbox = createSlackInboxRepository(db);
  return {
    async receive(payload: unknown): Promise<SlackReceipt> {
      const action = interpretSlackPayload(payload);
      if (action.kind === 'challenge') return { challenge: action.challenge };
      if (action.kind === 'ignore') return { status: 'ignored', reason: action.reason };
      const recorded = await inbox.record({
        eventId: action.eventId,
        channel: action.channel,
        messageTs: action.ts,
        payload,
      });
      if (!recorded) return { status: 'duplicate' };
      onRecorded();
      return { status: 'recorded' };
    },
  };
}
export type SlackEventsService = ReturnType<typeof createSlackEventsService>;
