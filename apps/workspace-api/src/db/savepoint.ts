import type { Tx } from './client';

/** Ours, never input; marking again under it makes a new point that a rollback returns to. */
const NAME = 'placement';

/**
 * Marks a point in `tx`; the transaction's commit ends it. Rolling back to it undoes what
 * followed and releases the row locks taken since (PostgreSQL releases row locks at a savepoint
 * rollback), while the transaction goes on.
 */
export async function savepoint(tx: Tx) {
  await tx.$executeRawUnsafe(`SAVEPOINT ${NAME}`);
  return {
    rollback: async () => void (await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${NAME}`)),
  };
}
