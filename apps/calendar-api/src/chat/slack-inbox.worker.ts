import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { tableOf, type Db, type Tx } from '../db';
import type { MessagesService } from '../messages/messages.service';
import { backoffDelayMs } from '../notifications/delivery-policy';
import { createWorkerLoop } from '../workers/worker-loop';
import { interpretSlackPayload, slackTsToDate } from './slack-event';

export const INBOX_MAX_ATTEMPTS = 5;
const INBOX_BACKOFF = { baseMs: 1000, maxMs: 60_000 };
const ROUNDS_PER_RUN = 20;

interface InboxRow {
  id: number;
  payload: unknown;
  attempts: number;
}

/**
 * Processes stored Slack events, each in one transaction with the changes and notifications it
 * causes, so an event is applied exactly once or not at all. The row lock (SKIP LOCKED) keeps
 * replicas apart; a message's events are taken in arrival order (none while an earlier one for
 * the same message is pending), so an edit is never overtaken by the original post.
 */
export function createSlackInbox({
  db,
  config,
  messages,
  log,
}: {
  db: Db;
  config: Config;
  messages: MessagesService;
  log: FastifyBaseLogger;
}) {
  const table = tableOf(config, 'slack_inbox');

  async function apply(tx: Tx, payload: unknown): Promise<void> {
    const action = interpretSlackPayload(payload);
    if (action.kind === 'upsert') {
      const postedAt = slackTsToDate(action.ts) ?? undefined;
      const { channel, ts, text } = action;
      await messages.ingestWith(tx, { channel, messageId: ts, text, postedAt });
    } else if (action.kind === 'delete') {
      await messages.removeWith(tx, action.channel, action.ts);
    }
  }

  async function recordFailure(tx: Tx, row: InboxRow, error: unknown) {
    const attempt = row.attempts + 1;
    const status = attempt >= INBOX_MAX_ATTEMPTS ? 'failed' : 'pending';
    const delay = `${backoffDelayMs(attempt, INBOX_BACKOFF)} milliseconds`;
    log.error({ err: error, inboxId: row.id, attempt, status }, 'Slack event could not be applied');
    await tx.$executeRaw`
      UPDATE ${table}
         SET attempts = ${attempt}::integer, status = ${status}, last_error = left(${String(error)}, 1000),
             next_attempt_at = now() + ${delay}::interval, updated_at = now()
       WHERE id = ${row.id}`;
  }

  /** Applies the next due event; false when there is none. */
  function processNext(): Promise<boolean> {
    return db.$transaction(
      async (tx) => {
        const [row] = await tx.$queryRaw<InboxRow[]>`
          SELECT i.id, i.payload, i.attempts FROM ${table} i
           WHERE i.status = 'pending' AND i.next_attempt_at <= now()
             AND NOT EXISTS (
                 SELECT 1 FROM ${table} e
                  WHERE e.channel = i.channel AND e.message_ts = i.message_ts
                    AND e.id < i.id AND e.status = 'pending')
           ORDER BY i.id
           LIMIT 1
             FOR UPDATE OF i SKIP LOCKED`;
        if (!row) return false;
        await tx.$executeRaw`SAVEPOINT apply_event`;
        try {
          await apply(tx, row.payload);
          await tx.$executeRaw`
            UPDATE ${table}
               SET status = 'done', attempts = attempts + 1, processed_at = now(), last_error = NULL,
                   updated_at = now()
             WHERE id = ${row.id}`;
        } catch (error) {
          await tx.$executeRaw`ROLLBACK TO SAVEPOINT apply_event`;
          await recordFailure(tx, row, error);
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

  const loop = createWorkerLoop({ intervalMs: config.SLACK_INBOX_INTERVAL_MS, runOnce, log });
  return { runOnce, start: loop.start, stop: loop.stop, wake: loop.wake };
}
export type SlackInboxWorker = ReturnType<typeof createSlackInbox>;
