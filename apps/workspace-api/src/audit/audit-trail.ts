import { randomUUID } from 'node:crypto';
import type { AuditRecorder, AuditSnapshots, Tx } from '../db';
import type { AuditRepository } from './audit.repository';
import {
  type AuditContext,
  type AuditedChange,
  type AuditLogger,
  type AuditOutcome,
  type AuditTarget,
  type Fields,
  isObject,
  outcomeOf,
  type PendingAudit,
  pick,
  type TargetKind,
  type TargetKinds,
  toRow,
} from './audit-event';

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

  /**
   * The recorder of one API write's success event (db/audit-recorder.ts): written by the change's
   * own statement or transaction, once. Its id is chosen here, so a claim is the same row whoever
   * writes it.
   */
  function recorder(
    context: AuditContext,
    operation: string,
    target: AuditTarget | null,
  ): AuditRecorder {
    const id = randomUUID();
    let state: 'free' | 'claimed' | 'written' = 'free';
    const rowOf = ({ before, after }: AuditSnapshots) => {
      const kind = target ? kinds[target.type] : undefined;
      const named = target && Object.values(target.ref).find((v) => typeof v === 'string');
      const targetId = idIn(kind, after) ?? idIn(kind, before) ?? (named as string | null) ?? null;
      const change = {
        operation,
        target: target && { type: target.type, id: targetId },
        before,
        after,
      };
      return toRow(context, change, { result: 'success', status: 200 });
    };
    return {
      claim() {
        if (state !== 'free') return null;
        state = 'claimed';
        const row = rowOf({ before: null, after: null });
        return [
          id,
          row.actorKind,
          row.actorId,
          row.actorName,
          row.channel,
          row.operation,
          row.targetType,
          row.clientIp,
          row.userAgent,
        ];
      },
      async recordIn(tx, snapshots) {
        if (state !== 'free') return;
        state = 'claimed';
        await events.insert({ ...rowOf(snapshots), id }, tx);
      },
      settle(written) {
        if (state === 'claimed') state = written ? 'written' : 'free';
      },
      get written() {
        return state === 'written';
      },
    };
  }

  return {
    recorder,

    /**
     * The target a request body names for `type`: the `target_<type>` object's id (and a user's
     * username), else the same field at the top (kasm_id, registry_id, api_key_id). Only those
     * fields are kept: never a password beside them.
     */
    targetIn(type: string, body: unknown): AuditTarget | null {
      const kind = kinds[type];
      if (!kind || !isObject(body)) return null;
      if (kind.refFrom) return { type, ref: kind.refFrom(body) };
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

    /**
     * Records one change already made (a CLI command), or refused (`outcome`: a transfer a
     * session's policy refused), with what the caller knows of it.
     */
    async record(
      context: AuditContext,
      change: AuditedChange,
      outcome: AuditOutcome = { result: 'success' },
    ): Promise<void> {
      try {
        await events.insert(toRow(context, change, outcome));
      } catch (error) {
        log.error({ err: error, operation: change.operation }, 'audit event not recorded');
      }
    },

    /** Records a write refused before it changed anything (an SSO sign-in): its reason is its outcome. */
    async recordRefusal(
      context: AuditContext,
      change: AuditedChange,
      outcome: AuditOutcome,
    ): Promise<void> {
      try {
        await events.insert(toRow(context, change, outcome));
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
