import type { FastifyBaseLogger } from 'fastify';
import { Counter, scrapedGauges, type Registry } from '@platform/metrics';
import type { Database } from '../db';
import type { DeliveryOutcome } from './dispatcher';
import { createNotificationsRepository } from './notifications.repository';

/**
 * The outbox's backlog (read at each scrape: one grouped query on the (status, id) index) and
 * the dispatcher's attempts; answers what the dispatcher reports each attempt's outcome to.
 */
export function createOutboxMetrics({
  registry,
  db,
  log,
}: {
  registry: Registry;
  db: Database;
  log: FastifyBaseLogger;
}) {
  const repository = createNotificationsRepository(db);
  scrapedGauges({
    registry,
    log,
    read: () => repository.backlog(),
    labelNames: ['target'],
    labels: (row) => ({ target: row.target }),
    gauges: [
      {
        name: 'calendar_notifications_pending',
        help: 'Notifications waiting for delivery (the outbox backlog), by target',
        value: (row) => row.count,
      },
      {
        name: 'calendar_notifications_oldest_pending_seconds',
        help: 'Age of the oldest notification waiting for delivery, by target',
        value: (row) => row.oldestSeconds,
      },
    ],
  });
  const attempts = new Counter({
    name: 'calendar_notification_deliveries_total',
    help: 'Delivery attempts by target and outcome: delivered, retried (failed, to be tried again), failed (for good)',
    labelNames: ['target', 'outcome'],
    registers: [registry],
  });
  return (target: string, outcome: DeliveryOutcome) => attempts.inc({ target, outcome });
}
