// The audit feature's public face: recording writes (the API's plugin, the console's `around`)
// and reading them back (get_audit_log).
export { createAuditLog, toAuditEventResponse, type AuditLog } from './audit-log';
export { auditPlugin, auditWrites, requestOrigin } from './audit.plugin';
export { createAuditFeature } from './audit.module';
export { createAuditRepository, type AuditRepository } from './audit.repository';
export { eventInsertIn } from './audit-event.sql';
export { auditRoutes } from './audit.routes';
export {
  AUDIT_CHANNELS,
  AUDIT_RESULTS,
  AuditEventSchema,
  AuditLogPageSchema,
  GetAuditLogBodySchema,
  type AuditEventResponse,
  type GetAuditLogBody,
} from './audit.schemas';
export { auditTargetKinds, type AuditSources } from './audit-targets';
export {
  type AuditActor,
  type AuditChannel,
  type AuditContext,
  type AuditedChange,
  type AuditOutcome,
  type AuditTarget,
  outcomeOf,
  type PendingAudit,
  type TargetKind,
} from './audit-event';
export { type AuditTrail, createAuditTrail } from './audit-trail';
export { createHostAudit, type HostAudit } from './host-audit';
export { redact } from './redact';
