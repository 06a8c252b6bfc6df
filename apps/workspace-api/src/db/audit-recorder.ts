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
