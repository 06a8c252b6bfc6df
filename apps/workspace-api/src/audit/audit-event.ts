import type { AuditedChange } from '../domain';
import type { NewAuditEventRow } from './audit.repository';
import type { AUDIT_CHANNELS, AUDIT_RESULTS } from './audit.schemas';
import { redact } from './redact';

// What an audit event is made of, and its row.

/** Who made a change: an API key, a signed-in person (the console), or the host (settings apply). */
export type AuditActor =
  | { kind: 'api_key'; id: string; name: string }
  | { kind: 'user'; id: string; username: string }
  | { kind: 'system'; name: string };
export type AuditChannel = (typeof AUDIT_CHANNELS)[number];
export type AuditResult = (typeof AUDIT_RESULTS)[number];

/** Who, through which channel, from where. */
export interface AuditContext {
  actor: AuditActor;
  channel: AuditChannel;
  clientIp?: string | null;
  userAgent?: string | null;
}

export type Fields = Record<string, unknown>;

/** Where a snapshot that cannot be read, or an event that cannot be written, is told. */
export interface AuditLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export type { AuditedChange };

/** A target as a request names it: `{ type: 'user', ref: { username: 'ada' } }`. */
export interface AuditTarget {
  type: string;
  ref: Fields;
}

/** How the trail reads one type of target: the field that holds its id, and its snapshot. */
export interface TargetKind {
  idField: string;
  /** Other fields that name it (a user's username). */
  alsoNamedBy?: string[];
  /** The reference a request gives it, when it is more than its names (an exec's command digest). */
  refFrom?: (body: Fields) => Fields;
  /** Its wire form, as its read operation answers; null (or a 404 thrown) when there is none. */
  load(ref: Fields): Promise<object | null>;
}
export type TargetKinds = Record<string, TargetKind>;

/** A change under way: what it is and its target before. */
export interface PendingAudit {
  context: AuditContext;
  operation: string;
  target: AuditTarget | null;
  before: object | null;
}

export interface AuditOutcome {
  result: AuditResult;
  status?: number | null;
  errorCode?: string | null;
  /** Names the target after a success when the request could not (a create's new id). */
  afterRef?: Fields;
}

export const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function pick(source: Fields, fields: string[]): Fields | null {
  const ref = Object.fromEntries(
    fields.filter((f) => typeof source[f] === 'string').map((f) => [f, source[f]]),
  );
  return Object.keys(ref).length > 0 ? ref : null;
}

const clip = (value: string | null | undefined, max: number) =>
  value === null || value === undefined ? null : value.slice(0, max);

function actorColumns(actor: AuditActor) {
  if (actor.kind === 'system')
    return { actorKind: actor.kind, actorId: null, actorName: actor.name };
  const name = actor.kind === 'user' ? actor.username : actor.name;
  return { actorKind: actor.kind, actorId: actor.id, actorName: clip(name, 255) };
}

/** The row of one event: the actor copied, long values clipped to their columns, snapshots redacted. */
export function toRow(
  context: AuditContext,
  change: AuditedChange,
  outcome: AuditOutcome,
): NewAuditEventRow {
  return {
    ...actorColumns(context.actor),
    channel: context.channel,
    operation: clip(change.operation, 64) as string,
    targetType: change.target?.type ?? null,
    targetId: clip(change.target?.id, 255),
    clientIp: clip(context.clientIp, 64),
    userAgent: clip(context.userAgent, 512),
    result: outcome.result,
    status: outcome.status ?? null,
    errorCode: clip(outcome.errorCode, 64),
    before: redact(change.before),
    after: redact(change.after),
  };
}

/** The outcome of a change that threw: its HTTP status decides denied (401/403) or failed. */
export function outcomeOf(error: unknown): AuditOutcome {
  const e = isObject(error) ? error : {};
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  const errorCode = typeof e.code === 'string' ? e.code : null;
  return { result: status === 401 || status === 403 ? 'denied' : 'failed', status, errorCode };
}
