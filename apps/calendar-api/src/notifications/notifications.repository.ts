import { qualified, type Database, type Tx } from '../db';
import { Prisma, type Notification } from '../generated/prisma/client';

/** The one row shape of a notification. */
export type NotificationRow = Notification;
import type { NotificationContent } from './notification-content';

export interface ClaimedNotification {
  id: number;
  target: string;
  content: NotificationContent;
  /** After the claim: this attempt's number, and the fence for recording its outcome. */
  attempts: number;
}

export interface Result {
  lastStatus: number | null;
  lastError: string | null;
}

export interface NotificationsPageQuery {
  status?: string;
  beforeId?: number;
  limit: number;
}

/**
 * Every query of notification. The outbox as a work queue, in raw SQL for FOR UPDATE SKIP LOCKED. A claim leases rows by
 * pushing next_attempt_at past the lease, so no other dispatcher takes them until it runs out;
 * every outcome is written only while `attempts` still holds the claim's value, so a dispatcher
 * whose lease ran out cannot overwrite the work of the one that took over.
 */
export function createNotificationsRepository(db: Database) {
  const table = Prisma.raw(qualified(db.schema, 'notification'));
  const after = (ms: number) => `${Math.max(0, Math.round(ms))} milliseconds`;

  const finish = (
    row: ClaimedNotification,
    set: { status: string; delay: string },
    result: Result,
  ) =>
    db.prisma.$executeRaw`
      UPDATE ${table}
         SET status = ${set.status},
             next_attempt_at = now() + ${set.delay}::interval,
             delivered_at = CASE WHEN ${set.status} = 'delivered' THEN now() END,
             last_status = ${result.lastStatus}::integer,
             last_error = left(${result.lastError}::text, 1000),
             updated_at = now()
       WHERE id = ${row.id} AND attempts = ${row.attempts} AND status = 'pending'`;

  return {
    /** One row per target, in the transaction of the change the content reports. */
    async enqueue(tx: Tx, targets: string[], content: NotificationContent): Promise<void> {
      await tx.notification.createMany({
        data: targets.map((target) => ({
          target,
          action: content.action,
          content: content as unknown as Prisma.InputJsonObject,
        })),
      });
    },

    /** Newest first, keyset-paged on id; one more than `limit` tells whether more remain. */
    page(query: NotificationsPageQuery): Promise<NotificationRow[]> {
      return db.prisma.notification.findMany({
        where: {
          status: query.status,
          id: query.beforeId === undefined ? undefined : { lt: query.beforeId },
        },
        orderBy: { id: 'desc' },
        take: query.limit + 1,
      });
    },

    claim(targets: string[], limit: number, leaseMs: number): Promise<ClaimedNotification[]> {
      return db.prisma.$queryRaw<ClaimedNotification[]>`
        WITH next AS (
          SELECT id FROM ${table}
           WHERE status = 'pending' AND next_attempt_at <= now() AND target = ANY(${targets}::text[])
           ORDER BY next_attempt_at, id
           LIMIT ${limit}::integer
             FOR UPDATE SKIP LOCKED)
        UPDATE ${table} AS n
           SET attempts = n.attempts + 1,
               next_attempt_at = now() + ${after(leaseMs)}::interval,
               updated_at = now()
          FROM next
         WHERE n.id = next.id
        RETURNING n.id, n.target, n.content, n.attempts`;
    },

    delivered: (row: ClaimedNotification, result: Result) =>
      finish(row, { status: 'delivered', delay: after(0) }, result),

    failed: (row: ClaimedNotification, result: Result) =>
      finish(row, { status: 'failed', delay: after(0) }, result),

    retryAfter: (row: ClaimedNotification, delayMs: number, result: Result) =>
      finish(row, { status: 'pending', delay: after(delayMs) }, result),

    /** Pending notifications by target, with the age of the oldest (the metrics' view). */
    backlog: () =>
      db.prisma.$queryRaw<{ target: string; count: number; oldestSeconds: number }[]>`
        SELECT target, count(*)::integer AS count,
               extract(epoch FROM now() - min(created_at))::float8 AS "oldestSeconds"
          FROM ${table}
         WHERE status = 'pending'
         GROUP BY target`,

    /** Hands a claimed row back untried (its dispatcher is stopping): claimable at once, attempt not counted. */
    release: (row: ClaimedNotification) =>
      db.prisma.$executeRaw`
        UPDATE ${table}
           SET attempts = attempts - 1, next_attempt_at = now(), updated_at = now()
         WHERE id = ${row.id} AND attempts = ${row.attempts} AND status = 'pending'`,
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
