import { recordedChange, type AuditRecorder, type Tx } from '../db';
import type { KasmWithOwners } from './kasm-owners';
import { toKasmResponse } from './kasm-response';
import type { KasmsRepository } from './kasms.repository';

type SessionRows = Pick<KasmsRepository, 'transaction' | 'find'>;

/**
 * The session as get_kasm_status shows it, its row read in `tx` (its user, workspace and agent
 * as `row` has them: a session's change never changes those): its audit snapshot.
 */
export const sessionSnapshot =
  (kasms: SessionRows, row: KasmWithOwners) =>
  async (tx: Tx): Promise<object | null> => {
    const now = await kasms.find(row.id, tx);
    return now && toKasmResponse({ ...row, ...now });
  };

/**
 * Moves a session by a conditional update (`move`, kasms.transition in `tx`) in one transaction
 * with the API write's event (`audit`), the session read before and after in it; without
 * `audit`, by the update alone. False, with nothing recorded, when another process moved it first.
 */
export function recordedMove(
  kasms: SessionRows,
  audit: AuditRecorder | null | undefined,
  row: KasmWithOwners,
  move: (tx?: Tx) => Promise<boolean>,
): Promise<boolean> {
  if (!audit) return move();
  const snapshot = sessionSnapshot(kasms, row);
  return recordedChange(kasms.transaction, audit, {
    before: snapshot,
    change: move,
    after: snapshot,
    changed: (moved) => moved,
  });
}
