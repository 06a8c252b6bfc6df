import type { Database, Tx } from './client';
import { toDatabaseError } from './database-errors';

/**
 * A statement of a repository: one fixed text with `$n` parameters. `name` makes it a prepared
 * statement on the pool (parsed and planned once per connection); statements whose text depends
 * on the request leave it out.
 */
export interface Statement {
  name?: string;
  text: string;
  values: unknown[];
}

/**
 * `"<schema>"."<table>"`, the one way our SQL names a table. Safe to splice: DATABASE_SCHEMA is
 * validated as a plain identifier by config, and table names are constants.
 */
export function qualified(schema: string, table: string): string {
  return `"${schema}"."${table}"`;
}

/**
 * Runs a statement on the shared pool, or inside `tx` when it belongs to a transaction; the rows
 * are the same either way. Outages become 503s here; unique violations reach the caller as they
 * are, for isUniqueViolation.
 */
export async function runStatement<R>(
  database: Database,
  statement: Statement,
  tx?: Tx,
): Promise<R[]> {
  try {
    if (tx) return await tx.$queryRawUnsafe<R[]>(statement.text, ...statement.values);
    const result = await database.pool.query({
      ...(statement.name ? { name: statement.name } : {}),
      text: statement.text,
      values: statement.values,
    });
    return result.rows as R[];
  } catch (error) {
    throw toDatabaseError(error);
  }
}
