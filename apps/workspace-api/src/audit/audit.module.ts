import type { Database } from '../db';
import { createAuditLog } from './audit-log';
import { createAuditRepository } from './audit.repository';
import { auditTargetKinds, type AuditSources } from './audit-targets';
import { createAuditTrail } from './audit-trail';

/**
 * The audit feature: the trail every write is recorded through (the API's plugin and the
 * console), the log that reads it back, and the names of deleted users it still holds.
 */
export function createAuditFeature({
  database,
  log,
  sources,
}: {
  database: Database;
  log: Parameters<typeof createAuditTrail>[0]['log'];
  /** Each target's snapshot before and after a write, read through its feature. */
  sources: AuditSources;
}) {
  const events = createAuditRepository(database);
  return {
    trail: createAuditTrail({ events, log, kinds: auditTargetKinds(sources) }),
    auditLog: createAuditLog(events),
    usernameDeleted: events.usernameDeleted,
  };
}
