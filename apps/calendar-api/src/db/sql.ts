import type { Database, Tx } from './client';
import { toDatabaseError } from './database-errors';

/** A statement of ours: one text, run as a named prepared statement on the pool. */
export interface Statement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * `"<schema>"."<name>"` for SQL of ours. Safe to splice: DATABASE_SCHEMA is validated as a plain
 * identifier, and names are constants.
 */
export function qualified(schema: string, name: string): string {
  return `"${schema}"."${name}"`;
}

/**
 * Runs a statement: prepared on the shared pool (parsed and planned once per connection), or
 * inside `tx` when it is part of a transaction. Either way it answers the same rows.
 */
export async function runStatement<R>(db: Database, tx: Tx | null, statement: Statement) {
  try {
    if (tx !== null) return await tx.$queryRawUnsafe<R[]>(statement.text, ...statement.values);
    const result = await db.pool.query({
      name: statement.name,
      text: statement.text,
      values: statement.values,
    });
    return result.rows as R[];
  } catch (error) {
    throw toDatabaseError(error);
  }
}
