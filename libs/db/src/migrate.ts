import { hash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { applyFunctionFiles, FUNCTIONS_TABLE, readFunctionFiles } from './sql-functions';

export interface MigrateOptions {
  connectionString: string;
  /** The Postgres schema the service owns; created when missing. */
  schema: string;
  /** A folder in Prisma's layout: `<timestamp>_<name>/migration.sql`. */
  migrationsDir: string;
  /**
   * Repeatable SQL files (CREATE OR REPLACE), applied after the migrations when changed
   * (`sql-functions.ts`); by default the `functions` folder beside `migrationsDir`, if any.
   */
  functionsDir?: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
  /** The functions files applied because they were new or changed. */
  functions: string[];
}

/** The runner's own tables in a service's schema, which no schema.prisma describes. */
export const RUNNER_TABLES = ['_prisma_migrations', FUNCTIONS_TABLE];

export class MigrationError extends Error {}

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

// Prisma's own history table, so `prisma migrate deploy` sees the same history where it can run.
const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

/** The migrations and the functions files that `migrate` applies, each with its checksum. */
export async function readSources(options: Pick<MigrateOptions, 'migrationsDir' | 'functionsDir'>) {
  return {
    migrations: await readMigrations(options.migrationsDir),
    functions: await readFunctionFiles(
      options.functionsDir ?? path.join(options.migrationsDir, '..', 'functions'),
    ),
  };
}

async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: hash('sha256', sql, 'hex') };
    }),
  );
}

function lockKey(schema: string): string {
  // pg_advisory_lock takes a bigint; derive a stable one per schema.
  return BigInt.asIntN(
    64,
    BigInt(`0x${hash('sha256', `migrate:${schema}`, 'hex').slice(0, 16)}`),
  ).toString();
}

function checkHistory(migrations: Migration[], rows: AppliedRow[]): Migration[] {
  const applied = new Map(rows.filter((r) => !r.rolled_back_at).map((r) => [r.migration_name, r]));
  for (const migration of migrations) {
    const row = applied.get(migration.name);
    if (row && !row.finished_at) {
      throw new MigrationError(`Migration ${migration.name} failed earlier and was never resolved`);
    }
    if (row && row.checksum !== migration.checksum) {
      throw new MigrationError(
        `Migration ${migration.name} was changed after it was applied (checksum mismatch); ` +
          'add a new migration instead of editing an applied one',
      );
    }
  }
  return migrations.filter((m) => !applied.has(m.name));
}

/**
 * Applies pending migrations, each in its own transaction, then the functions files that changed.
 * An advisory lock serializes replicas that start at once: the second waits, then finds nothing
 * left to do.
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  if (!SCHEMA_NAME.test(options.schema))
    throw new MigrationError(`Invalid schema name "${options.schema}"`);
  const { migrations, functions } = await readSources(options);
  const client = new Client({ connectionString: options.connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [lockKey(options.schema)]);
    // Deployments give each service a role that owns its schema but may not create schemas, and
    // CREATE SCHEMA IF NOT EXISTS checks that privilege even when the schema is already there.
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
      options.schema,
    ]);
    if (!rowCount) await client.query(`CREATE SCHEMA "${options.schema}"`);
    await client.query(`SET search_path TO "${options.schema}"`);
    await client.query(HISTORY_TABLE);
    const { rows } = await client.query<AppliedRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const pending = checkHistory(migrations, rows);
    for (const migration of pending) await applyOne(client, migration);
    const changed = await applyFunctionFiles(client, functions, (m) => new MigrationError(m));
    return {
      applied: pending.map((m) => m.name),
      alreadyApplied: migrations.length - pending.length,
      functions: changed,
    };
  } finally {
    await client.end();
  }
}

async function applyOne(client: Client, migration: Migration): Promise<void> {
  const id = randomUUID();
  try {
    await client.query('BEGIN');
    await client.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(
      'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
  }
}

/** Applies a service's migrations to the database and schema its DATABASE_* variables name. */
export function migrateService(
  env: { DATABASE_URL: string; DATABASE_SCHEMA: string },
  migrationsDir: string,
): Promise<MigrateResult> {
  return migrate({
    connectionString: env.DATABASE_URL,
    schema: env.DATABASE_SCHEMA,
    migrationsDir,
  });
}
