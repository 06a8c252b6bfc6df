import { hostname, userInfo } from 'node:os';
import type { Database } from '../db';
import type { AuditChannel, AuditContext, AuditedChange } from './audit-event';
import { createAuditRepository } from './audit.repository';
import { type AuditTrail, createAuditTrail } from './audit-trail';

/** What a command run on the host records its writes with. */
export interface HostAudit {
  trail: AuditTrail;
  context: AuditContext;
  /** One write, with its target after (and before, when it changed one). */
  record(change: AuditedChange): Promise<void>;
}

/**
 * The audit trail of commands run on the host (`setup`, `admin create`, `api-key …`, `registry
 * …`, `settings apply`): the actor is the operating-system account that ran them. An event that
 * cannot be written is told on stderr, as the command's other troubles are.
 */
export function createHostAudit(
  database: Database,
  channel: Extract<AuditChannel, 'cli' | 'settings-file'>,
  tell: (message: string) => void = (m) => void process.stderr.write(`${m}\n`),
): HostAudit {
  const say = (_details: object, message: string) => tell(message);
  const trail = createAuditTrail({
    events: createAuditRepository(database),
    kinds: {},
    log: { warn: say, error: say },
  });
  const actor = { kind: 'system' as const, name: `${userInfo().username}@${hostname()}` };
  const context = { actor, channel };
  return { trail, context, record: (change) => trail.record(context, change) };
}
