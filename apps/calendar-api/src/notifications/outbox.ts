import type { Tx } from '../db';
import type { Prisma } from '../generated/prisma/client';
import type { NotificationContent } from './notification-content';
import type { WebhookTarget } from './webhook-targets';

/**
 * Records notifications in the transaction of the change they report, one row per target:
 * committed together with the change, or not at all. The dispatcher delivers them later.
 */
export function createOutbox({ targets }: { targets: WebhookTarget[] }) {
  return {
    /** Whether enqueue writes anything: false when no target is configured. */
    records: targets.length > 0,

    async enqueue(tx: Tx, content: NotificationContent): Promise<void> {
      if (targets.length === 0 || content.total === 0) return;
      await tx.notification.createMany({
        data: targets.map((target) => ({
          target: target.name,
          action: content.action,
          content: content as unknown as Prisma.InputJsonObject,
        })),
      });
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
