import type { Database, Tx } from '../db';
import type { WebhookTarget } from '../domain';
import type { NotificationContent } from './notification-content';
import { createNotificationsRepository } from './notifications.repository';

/**
 * Records notifications in the transaction of the change they report, one row per target:
 * committed together with the change, or not at all. The dispatcher delivers them later.
 */
export function createOutbox({ db, targets }: { db: Database; targets: WebhookTarget[] }) {
  const repository = createNotificationsRepository(db);
  const names = targets.map((target) => target.name);
  async function enqueueTo(tx: Tx, to: string[], content: NotificationContent): Promise<void> {
    if (to.length === 0 || content.total === 0) return;
    await repository.enqueue(tx, to, content);
  }
  return {
    /** Whether enqueue writes anything: false when no target is configured. */
    records: targets.length > 0,

    enqueue: (tx: Tx, content: NotificationContent) => enqueueTo(tx, names, content),

    /** To some of the targets only (those a digest or reminder was claimed for). */
    enqueueTo,
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
