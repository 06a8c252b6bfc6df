/**
 * A write as the audit trail records it when it is made outside a request (the CLI, setup, the
 * settings apply): its target and both snapshots known. Here, not in audit/, so that a feature
 * handed a way to record (setup's agent, the registry's CLI) need not know the trail.
 */
export interface AuditedChange {
  operation: string;
  target: { type: string; id: string | null } | null;
  before: unknown;
  after: unknown;
}

/** Records one change in the host's audit trail. */
export type RecordChange = (change: AuditedChange) => Promise<void>;
