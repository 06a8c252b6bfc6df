import type { Pool } from 'pg';

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
 * validated as a plain identifier by each service's config, and table names are constants.
 */
export function qualified(schema: string, table: string): string {
  return `"${schema}"."${table}"`;
}

/** A transaction that runs raw SQL: Prisma's interactive-transaction client. */
export interface RawSqlTransaction {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * Runs a statement on the shared pool, or inside `tx` when it belongs to a transaction; the rows
 * are the same either way. A failure leaves through the service's `mapError` (outages become
 * 503s).
 */
export async function runStatement<R>(
  pool: Pool,
  statement: Statement,
  tx: RawSqlTransaction | undefined,
  mapError: (error: unknown) => unknown,
): Promise<R[]> {
  try {
    if (tx) return await tx.$queryRawUnsafe<R[]>(statement.text, ...statement.values);
    // pg copies the config it is given: the statement itself is one (an absent name: unnamed).
    const result = await pool.query(statement);
    return result.rows as R[];
  } catch (error) {
    throw mapError(error);
  }
}
