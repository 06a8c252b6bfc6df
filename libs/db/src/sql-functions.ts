import { hash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from 'pg';

/**
 * Repeatable SQL: each `<name>.sql` of a service's functions folder (re)creates its objects with
 * CREATE OR REPLACE and is applied after the migrations whenever its checksum differs from the one
 * last applied, as a repeatable migration is elsewhere (Flyway's R__ files). A function then has
 * one source file that a change edits, where migrations, being history, had to repeat its whole
 * text. Recorded in its own table, not in `_prisma_migrations`, whose rows Prisma expects to
 * match the migrations folder.
 */
export const FUNCTIONS_TABLE = '_sql_functions';

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "${FUNCTIONS_TABLE}" (
  "name" VARCHAR(255) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

export interface SqlFunctionFile {
  name: string;
  sql: string;
  checksum: string;
}

/** The folder's `*.sql` files by name; none when it does not exist. */
export async function readFunctionFiles(dir: string): Promise<SqlFunctionFile[]> {
  const names = await readdir(dir).then(
    (entries) => entries.filter((name) => name.endsWith('.sql')).sort(),
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name), 'utf8');
      return { name, sql, checksum: hash('sha256', sql, 'hex') };
    }),
  );
}

/**
 * Applies each file whose checksum is not the recorded one, each in its own transaction with its
 * record, on a client whose search_path is the service's schema. Returns the names applied.
 */
export async function applyFunctionFiles(
  client: Client,
  files: SqlFunctionFile[],
  fail: (message: string) => Error,
): Promise<string[]> {
  if (files.length === 0) return [];
  await client.query(CREATE_TABLE);
  const { rows } = await client.query<{ name: string; checksum: string }>(
    `SELECT name, checksum FROM "${FUNCTIONS_TABLE}"`,
  );
  const applied = new Map(rows.map((row) => [row.name, row.checksum]));
  const changed = files.filter((file) => applied.get(file.name) !== file.checksum);
  for (const file of changed) {
    try {
      await client.query('BEGIN');
      await client.query(file.sql);
      await client.query(
        `INSERT INTO "${FUNCTIONS_TABLE}" (name, checksum) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
        [file.name, file.checksum],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw fail(`SQL functions file ${file.name} failed: ${(error as Error).message}`);
    }
  }
  return changed.map((file) => file.name);
}
