import type { Tx } from '../db';
import type { AuditRepository, NewAuditEventRow } from './audit.repository';
import type { AUDIT_CHANNELS, AUDIT_RESULTS } from './audit.schemas';
import { redact } from './redact';

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

type Fields = Record<string, unknown>;

/** Where a snapshot that cannot be read, or an event that cannot be written, is told. */
export interface AuditLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** A change recorded as it is made (settings apply): its target and both snapshots known. */
export interface AuditedChange {
  operation: string;
  target: { type: string; id: string | null } | null;
  before: unknown;
  after: unknown;
}

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

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function pick(source: Fields, fields: string[]): Fields | null {
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

function toRow(
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

/**
 * The audit trail: every write, and every refused one, as one `audit_event` row with its
 * target's snapshot before and after (secrets redacted). Recording never fails the change it
 * records: a row that cannot be written is logged as an error instead.
 */
export function createAuditTrail({
  events,
  kinds,
  log,
}: {
  events: AuditRepository;
  kinds: TargetKinds;
  log: AuditLogger;
}) {
  async function snapshot(target: AuditTarget | null): Promise<object | null> {
    const kind = target && kinds[target.type];
    if (!kind) return null;
    try {
      return await kind.load(target.ref);
    } catch (error) {
      if (isObject(error) && error.statusCode === 404) return null;
      log.warn({ err: error, target: target.type }, 'audit snapshot not read');
      return null;
    }
  }

  const idIn = (kind: TargetKind | undefined, value: unknown): string | null => {
    if (!kind || !isObject(value)) return null;
    const id = value[kind.idField];
    return typeof id === 'string' ? id : null;
  };

  async function begin(
    context: AuditContext,
    operation: string,
    target: AuditTarget | null,
  ): Promise<PendingAudit> {
    return { context, operation, target, before: await snapshot(target) };
  }

  async function finish(pending: PendingAudit, outcome: AuditOutcome): Promise<void> {
    const { context, target, before } = pending;
    const kind = target ? kinds[target.type] : undefined;
    const afterTarget = target && outcome.afterRef ? { ...target, ref: outcome.afterRef } : target;
    const after = outcome.result === 'success' ? await snapshot(afterTarget) : null;
    const named = afterTarget
      ? Object.values(afterTarget.ref).find((v) => typeof v === 'string')
      : null;
    const targetId =
      idIn(kind, after) ??
      idIn(kind, before) ??
      idIn(kind, afterTarget?.ref) ??
      (named as string | null);
    const row = toRow(
      context,
      {
        operation: pending.operation,
        target: target && { type: target.type, id: targetId },
        before,
        after,
      },
      outcome,
    );
    try {
      await events.insert(row);
    } catch (error) {
      log.error({ err: error, operation: row.operation }, 'audit event not recorded');
    }
  }

  return {
    /**
     * The target a request body names for `type`: the `target_<type>` object's id (and a user's
     * username), else the same field at the top (kasm_id, registry_id, api_key_id). Only those
     * fields are kept: never a password beside them.
     */
    targetIn(type: string, body: unknown): AuditTarget | null {
      const kind = kinds[type];
      if (!kind || !isObject(body)) return null;
      const nested = body[`target_${type}`];
      const fields = [kind.idField, ...(kind.alsoNamedBy ?? [])];
      const ref = pick(isObject(nested) ? nested : body, fields);
      return ref ? { type, ref } : { type, ref: {} };
    },

    /** The id a successful answer gives its target (`{ user: { user_id } }` or `{ kasm_id }`). */
    refIn(type: string, answer: unknown): Fields | undefined {
      const kind = kinds[type];
      if (!kind || !isObject(answer)) return undefined;
      const id = idIn(kind, answer[type]) ?? idIn(kind, answer);
      return id === null ? undefined : { [kind.idField]: id };
    },

    /** Reads the target before a change. */
    begin,

    /** A change refused or failed before its target was read: no snapshot before. */
    unread: (
      context: AuditContext,
      operation: string,
      target: AuditTarget | null,
    ): PendingAudit => ({
      context,
      operation,
      target,
      before: null,
    }),

    /** Records the outcome, with the target's snapshot after a success. */
    finish,

    /**
     * Records successful changes inside the transaction that makes them: a failure to record
     * throws, and the changes roll back with it.
     */
    async recordIn(tx: Tx, context: AuditContext, changes: AuditedChange[]): Promise<void> {
      for (const change of changes) {
        await events.insert(toRow(context, change, { result: 'success' }), tx);
      }
    },

    /** Records one change already made (a CLI command), with what the caller knows of it. */
    async record(context: AuditContext, change: AuditedChange): Promise<void> {
      try {
        await events.insert(toRow(context, change, { result: 'success' }));
      } catch (error) {
        log.error({ err: error, operation: change.operation }, 'audit event not recorded');
      }
    },

    /**
     * Runs `work` as one audited change: reads the target before, records success (with the
     * target after, named by `afterRef` of the result when given) or the failure, which it rethrows.
     * What the console calls around each service call.
     */
    async around<T>(
      context: AuditContext,
      operation: string,
      target: AuditTarget | null,
      work: () => Promise<T>,
      afterRef?: (result: T) => Fields | undefined,
    ): Promise<T> {
      const pending = await begin(context, operation, target);
      let result: T;
      try {
        result = await work();
      } catch (error) {
        await finish(pending, outcomeOf(error));
        throw error;
      }
      await finish(pending, { result: 'success', status: 200, afterRef: afterRef?.(result) });
      return result;
    },
  };
}
export type AuditTrail = ReturnType<typeof createAuditTrail>;
