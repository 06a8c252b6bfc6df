import { qualified, type Database, type Tx } from '../db';
import { Prisma } from '../generated/prisma/client';

export interface InboxRow {
  id: number;
  payload: unknown;
  attempts: number;
}

export interface NewInboxEvent {
  eventId: string;
  channel: string;
  messageTs: string;
  payload: unknown;
}

/** Every query of slack_inbox: stored Slack events and their processing state. */
export function createSlackInboxRepository(db: Database) {
  const table = Prisma.raw(qualified(db.schema, 'slack_inbox'));
  return {
    /** Stores an event once: false when its event_id is stored already (Slack's retries). */
    async record(event: NewInboxEvent): Promise<boolean> {
      const { count } = await db.prisma.slackInbox.createMany({
        data: [{ ...event, payload: event.payload as Prisma.InputJsonObject }],
        skipDuplicates: true,
      });
      return count > 0;
    },

    /**
     * Locks the next due event (SKIP LOCKED keeps replicas apart), none while an earlier one for
     * the same message is pending, so an edit is never overtaken by the original post.
     */
    async lockNextDue(tx: Tx): Promise<InboxRow | null> {
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
      return row ?? null;
    },

    /** Runs `apply` so that its failure undoes only its own changes, not the transaction. */
    async attempt<T>(tx: Tx, apply: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
      await tx.$executeRaw`SAVEPOINT apply_event`;
      try {
        return { value: await apply() };
      } catch (error) {
        await tx.$executeRaw`ROLLBACK TO SAVEPOINT apply_event`;
        return { error };
      }
    },

    markDone: (tx: Tx, id: number) =>
      tx.$executeRaw`
        UPDATE ${table}
           SET status = 'done', attempts = attempts + 1, processed_at = now(), last_error = NULL,
               updated_at = now()
         WHERE id = ${id}`,

    /** Processed, deliberately without effect: the reason says why. */
    markIgnored: (tx: Tx, id: number, reason: string) =>
      tx.$executeRaw`
        UPDATE ${table}
           SET status = 'ignored', attempts = attempts + 1, processed_at = now(),
               ignored_reason = left(${reason}, 1000), last_error = NULL, updated_at = now()
         WHERE id = ${id}`,

    markFailed: (
      tx: Tx,
      id: number,
      failure: { attempt: number; status: string; delayMs: number; error: string },
    ) =>
      tx.$executeRaw`
        UPDATE ${table}
           SET attempts = ${failure.attempt}::integer, status = ${failure.status},
               last_error = left(${failure.error}, 1000),
               next_attempt_at = now() + ${`${failure.delayMs} milliseconds`}::interval,
               updated_at = now()
         WHERE id = ${id}`,
  };
}
