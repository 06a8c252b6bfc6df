import type { Tx } from './client';

/** A fixed name: savepoints here are never nested, and the name is ours, never input. */
const NAME = 'placement';

/**
 * Marks a point in `tx`. Rolling back to it undoes what followed and releases the row locks taken
 * since (PostgreSQL releases row locks at savepoint rollback), while the transaction goes on.
 */
export async function savepoint(tx: Tx) {
  await tx.$executeRawUnsafe(`SAVEPOINT ${NAME}`);
  return {
    release: async () => void (await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${NAME}`)),
    rollback: async () => void (await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${NAME}`)),
  };
}
