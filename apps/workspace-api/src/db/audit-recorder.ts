import type { Tx } from './client';

/** A target's wire form before and after a change (null where there is none). */
export interface AuditSnapshots {
  before: object | null;
  after: object | null;
}

/**
 * The success event of one API write, which the write records in its own transaction so that
 * the two commit or roll back together (the audit plugin hands one to the route as
 * `request.audit`). Either a statement of the change inserts it itself (`claim`, with
 * `eventInsert`'s text) or the change's transaction does (`recordIn`). What the claim came to is
 * told by `settle`: the transaction helper does it at commit or rollback; a statement run alone,
 * by its repository (`runRecorded`).
 */
export interface AuditRecorder {
  /** The values of `eventInsert`'s parameters; null when the event is written or claimed already. */
  claim(): unknown[] | null;
  /** Inserts the event in `tx`, unless a statement claimed it. */
  recordIn(tx: Tx, snapshots: AuditSnapshots): Promise<void>;
  /** Whether the claimed event was committed; a claim that was not can be made again. */
  settle(written: boolean): void;
  /** Whether the event is committed (the plugin then records nothing more for the request). */
  readonly written: boolean;
}

/** How many parameters an event insert takes, from its first one on (its `from`). */
export const EVENT_PARAMS = 9;

/**
 * The SQL of an event insert inside a write statement: inserts the claimed event (a row of
 * `source` gives its target id and snapshots, as SQL expressions) and nothing when its first
 * parameter is null (no event, or claimed already). The audit feature owns the text.
 */
export type EventInsertSql = (parts: {
  from: number;
  source: string;
  targetId: string;
  before: string;
  after: string;
}) => string;

/** The parameters of an event insert that inserts nothing. */
export const NO_EVENT: readonly null[] = Array<null>(EVENT_PARAMS).fill(null);

/**
 * Runs a write statement that carries its own event insert (`run` gets the parameters): outside
 * a transaction the event is settled here, by whether the statement changed a row; inside `tx`,
 * by the transaction's end.
 */
export async function runRecorded<R>(
  audit: AuditRecorder | null | undefined,
  tx: Tx | undefined,
  run: (eventValues: readonly unknown[]) => Promise<R | null>,
): Promise<R | null> {
  const claimed = audit?.claim() ?? null;
  if (!claimed) return run(NO_EVENT);
  let result: R | null = null;
  try {
    result = await run(claimed);
    return result;
  } finally {
    // A statement that changed no row inserted no event: the claim is given back at once.
    if (!tx || result === null) audit?.settle(result !== null);
  }
}

/** A transaction runner that tells `audit` whether it committed: `database.transaction` or one built on it. */
export type AuditedTransaction = <T>(
  work: (tx: Tx) => Promise<T>,
  options?: { audit?: AuditRecorder | null },
) => Promise<T>;

/** One change and how its target reads, inside the change's transaction, for its event. */
export interface RecordedChange<R> {
  /** The target before the change; none for a creation. */
  before?: (tx: Tx) => Promise<object | null>;
  change: (tx: Tx) => Promise<R>;
  /** The target after the change (`result` names it); none for a deletion. */
  after?: (tx: Tx, result: R) => Promise<object | null> | object | null;
  /**
   * Whether the change changed anything (default: it did). One that did not (a conditional
   * update another process got to first, nothing to hand over) records nothing here: its event,
   * if any, is left to the audit plugin's after-the-outcome path.
   */
  changed?: (result: R) => boolean;
}

/**
 * Makes a change in one transaction (`transact`) that, with a recorder, also reads the target
 * before and after it and records the event: the change and its event commit or roll back
 * together. The services' one way to record an API write with its change.
 */
export function recordedChange<R>(
  transact: AuditedTransaction,
  audit: AuditRecorder | null | undefined,
  { before, change, after, changed }: RecordedChange<R>,
): Promise<R> {
  return transact(
    async (tx) => {
      const was = audit && before ? await before(tx) : null;
      const result = await change(tx);
      if (audit && (changed?.(result) ?? true))
        await audit.recordIn(tx, { before: was, after: (await after?.(tx, result)) ?? null });
      return result;
    },
    { audit },
  );
}

/** recordedChange of a target there before and after, read the same way (`snapshot`) both times. */
export const recordedUpdate = <R>(
  transact: AuditedTransaction,
  audit: AuditRecorder | null | undefined,
  snapshot: (tx: Tx) => Promise<object | null>,
  change: (tx: Tx) => Promise<R>,
): Promise<R> => recordedChange(transact, audit, { before: snapshot, change, after: snapshot });

/**
 * recordedChange of a deletion: the target read before it (`snapshot`); `remove` answers
 * whether a row went, and `missing` is thrown (nothing recorded) when none did.
 */
export const recordedRemoval = (
  transact: AuditedTransaction,
  audit: AuditRecorder | null | undefined,
  snapshot: (tx: Tx) => Promise<object | null>,
  remove: (tx: Tx) => Promise<boolean>,
  missing: () => Error,
): Promise<void> =>
  recordedChange(transact, audit, {
    before: snapshot,
    change: async (tx) => {
      if (!(await remove(tx))) throw missing();
    },
  });
