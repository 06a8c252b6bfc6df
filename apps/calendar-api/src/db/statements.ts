import { runStatement as run, type Statement } from '@platform/db';
import type { Database, Tx } from './client';
import { toDatabaseError } from './database-errors';

export { qualified, type Statement } from '@platform/db';

/** A repository's statement on the pool, or inside `tx`; a unique violation is a 409. */
export const runStatement = <R>(db: Database, statement: Statement, tx?: Tx) =>
  run<R>(db.pool, statement, tx, toDatabaseError);
