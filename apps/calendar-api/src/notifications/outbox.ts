import type { Database, Tx } from '../db';
import type { WebhookTarget } from '../domain/webhook-targets';
import type { NotificationContent } from './notification-content';
import { createNotificationsRepository } from './notifications.repository';

/**
 * Records notifications in the transaction of the change they report, one row per target:
 * committed together with the change, or not at all. The dispatcher delivers them later.
 */
export function createOutbox({ db, targets }: { db: Database; targets: WebhookTarget[] }) {
  const repository = createNotificationsRepository(db);
  const names = targets.map((target) => target.name);
  return {
    /** Whether enqueue writes anything: false when no target is configured. */
    records: targets.length > 0,

    async enqueue(tx: Tx, content: NotificationContent): Promise<void> {
      if (targets.length === 0 || content.total === 0) return;
      await repository.enqueue(tx, names, content);
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
