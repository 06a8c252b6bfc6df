import type { Database } from '../db';
import type { NotificationContent } from './notification-content';
import { eventLines, headline } from './notification-payloads';
import { createNotificationsRepository, type NotificationRow } from './notifications.repository';
import type { NotificationResponse, NotificationsQuery } from './notifications.schemas';

export interface NotificationPage {
  notifications: NotificationRow[];
  /** The id to continue before, when older notifications remain. */
  nextBeforeId: number | null;
}

/** The wire form of an outbox row; `next_attempt_at` only while it is still pending. */
export function toNotificationResponse(row: NotificationRow): NotificationResponse {
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
export function createNotificationsService({ db }: { db: Database }) {
  const repository = createNotificationsRepository(db);
  return {
    async page(query: NotificationsQuery): Promise<NotificationPage> {
      const rows = await repository.page({
        status: query.status,
        beforeId: query.before_id,
        limit: query.limit,
      });
      const notifications = rows.slice(0, query.limit);
      const last = notifications[notifications.length - 1];
      return { notifications, nextBeforeId: rows.length > query.limit ? last.id : null };
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
