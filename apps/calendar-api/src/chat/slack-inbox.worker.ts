import type { RoundObserver } from '@platform/metrics';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Database, Tx } from '../db';
import type { MessagesService } from '../messages';
import { backoffDelayMs } from '../notifications';
import { createWorkerLoop } from '@platform/worker-loop';
import { interpretSlackPayload, slackTsToDate } from './slack-event';
import { createSlackInboxRepository, type InboxRow } from './slack-inbox.repository';

export const INBOX_MAX_ATTEMPTS = 5;
const INBOX_BACKOFF = { baseMs: 1000, maxMs: 60_000 };
const ROUNDS_PER_RUN = 20;

/**
 * Processes stored Slack events, each in one transaction with the changes and notifications it
 * causes, so an event is applied exactly once or not at all; a message's events in arrival order.
 */
export function createSlackInbox({
  db,
  config,
  messages,
  log,
  rounds,
}: {
  db: Database;
  config: Config;
  messages: MessagesService;
  log: FastifyBaseLogger;
  /** Told of each round (the metrics). */
  rounds?: RoundObserver;
}) {
  const inbox = createSlackInboxRepository(db);

  /** Applies one stored event; answers why it was left without effect, or null. */
  async function apply(tx: Tx, payload: unknown): Promise<string | null> {
    const action = interpretSlackPayload(payload);
    if (action.kind === 'upsert') {
      const postedAt = slackTsToDate(action.ts) ?? undefined;
      const { channel, ts, text, version } = action;
      // Retrying cannot help, and a reply in the channel would be noise: recorded, not applied.
      return messages.ingestWith(tx, { channel, messageId: ts, text, postedAt, version });
    } else if (action.kind === 'delete') {
      await messages.removeWith(tx, action.channel, action.ts);
    }
    return null;
  }

  async function recordFailure(tx: Tx, row: InboxRow, error: unknown) {
    const attempt = row.attempts + 1;
    const status = attempt >= INBOX_MAX_ATTEMPTS ? 'failed' : 'pending';
    const delayMs = backoffDelayMs(attempt, INBOX_BACKOFF);
    log.error({ err: error, inboxId: row.id, attempt, status }, 'Slack event could not be applied');
    await inbox.markFailed(tx, row.id, { attempt, status, delayMs, error: String(error) });
  }

  /** Applies the next due event; false when there is none. */
  function processNext(): Promise<boolean> {
    return db.transaction(
      async (tx) => {
        const row = await inbox.lockNextDue(tx);
        if (!row) return false;
        const outcome = await inbox.attempt(tx, () => apply(tx, row.payload));
        if ('error' in outcome) await recordFailure(tx, row, outcome.error);
        else if (outcome.value === null) await inbox.markDone(tx, row.id);
        else {
          log.info({ inboxId: row.id, reason: outcome.value }, 'Slack event ignored');
          await inbox.markIgnored(tx, row.id, outcome.value);
        }
        return true;
      },
      // A long message takes a while to read; the row stays locked meanwhile.
      { timeout: 60_000, maxWait: config.DATABASE_TIMEOUT_MS },
    );
  }

  async function runOnce(): Promise<number> {
    let handled = 0;
    while (handled < ROUNDS_PER_RUN && (await processNext())) handled += 1;
    return handled;
  }

  const loop = createWorkerLoop({
    intervalMs: config.SLACK_INBOX_INTERVAL_MS,
    runOnce,
    log,
    rounds,
  });
  return { runOnce, start: loop.start, stop: loop.stop, wake: loop.wake };
}
export type SlackInboxWorker = ReturnType<typeof createSlackInbox>;
