import { runStatement as run, type Statement } from '@platform/db';
import type { Database, Tx } from './client';
import { toDatabaseError } from './database-errors';

export { qualified, type Statement } from '@platform/db';

/** A repository's statement on the pool, or inside `tx`; unique violations reach the caller. */
export const runStatement = <R>(database: Database, statement: Statement, tx?: Tx) =>
  run<R>(database.pool, statement, tx, toDatabaseError);
