import type { Db } from '../db';
import type { Notification } from '../generated/prisma/client';
import type { NotificationContent } from './notification-content';
import { eventLines, headline } from './notification-payloads';
import type { NotificationResponse, NotificationsQuery } from './notifications.schemas';

export interface NotificationPage {
  notifications: Notification[];
  /** The id to continue before, when older notifications remain. */
  nextBeforeId: number | null;
}

/** The wire form of an outbox row; `next_attempt_at` only while it is still pending. */
export function toNotificationResponse(row: Notification): NotificationResponse {
  const content = row.content as unknown as NotificationContent;
  return {
    id: row.id,
    target: row.target,
    action: row.action,
    status: row.status,
    attempts: row.attempts,
    text: [headline(content), ...eventLines(content)].join('\n'),
    events: content.events,
    total: content.total,
    source: content.source,
    last_status: row.lastStatus,
    last_error: row.lastError,
    next_attempt_at: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The delivery log: newest first, keyset-paged on id. */
export function createNotificationsService({ db }: { db: Db }) {
  return {
    async page(query: NotificationsQuery): Promise<NotificationPage> {
      const rows = await db.notification.findMany({
        where: {
          status: query.status,
          id: query.before_id === undefined ? undefined : { lt: query.before_id },
        },
        orderBy: { id: 'desc' },
        take: query.limit + 1,
      });
      const notifications = rows.slice(0, query.limit);
      const last = notifications[notifications.length - 1];
      return { notifications, nextBeforeId: rows.length > query.limit ? last.id : null };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
