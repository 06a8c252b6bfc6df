import { hash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate, readSources, RUNNER_TABLES } from '../migrate';

export interface TestDatabase {
  url: string;
  /**
   * Empties every table of the schema except those listed (and the migration runner's), as
   * `TRUNCATE … RESTART IDENTITY CASCADE` would: a table that references an emptied one is
   * emptied too, and the emptied tables' sequences start again.
   */
  truncate: (keep?: string[]) => Promise<void>;
  /** Runs one statement on the database's own connection (for assertions on raw rows). */
  query: <T extends object = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ) => Promise<T[]>;
  /**
   * Row count and checksum of every table of the schema but `except` (and the migration history): equal
   * snapshots mean nothing was written in between.
   */
  snapshot: (except?: string[]) => Promise<Record<string, string>>;
  drop: () => Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'TEST_DATABASE_URL is not set; run tests through jest (its global setup sets it)',
    );
  return url;
}

function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The template of this test run (TEST_RUN_ID, set by the global setup) for a schema and its
 * migrations: migrated once, by whichever test file asks first, then copied for every file.
 * A copy takes tens of milliseconds where migrating took hundreds. The run's global teardown
 * drops its templates (`test_template_…_<run id>`).
 */
async function migratedTemplate(options: { schema: string; migrationsDir: string }) {
  const run = process.env.TEST_RUN_ID;
  if (!run)
    throw new Error('TEST_RUN_ID is not set; run tests through jest (its global setup sets it)');
  const { migrations, functions } = await readSources(options);
  const checksums = [...migrations, ...functions].map((s) => `${s.name} ${s.checksum}`);
  const digest = hash('sha256', checksums.join('\n'), 'hex').slice(0, 12);
  const name = `test_template_${options.schema}_${digest}_${run}`;
  await withClient(adminUrl(), async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    await admin.query(`CREATE DATABASE "${name}"`);
    try {
      await migrate({ connectionString: databaseUrl(name), ...options });
    } catch (error) {
      await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      throw error;
    }
  });
  return name;
}

/**
 * One statement that empties the schema's tables but `keep` the way TRUNCATE … CASCADE would,
 * with DELETE: on tables of a few rows, a DELETE takes milliseconds where a TRUNCATE makes new
 * files for every table and index (a few hundred milliseconds before each test). Replica mode
 * leaves foreign keys unchecked and triggers unfired while the tables empty, as TRUNCATE does.
 */
async function emptyingStatement(client: Client, schema: string, keep: string[]) {
  const { rows } = await client.query<{ oid: number; name: string }>(
    `WITH RECURSIVE emptied(oid) AS (
       SELECT oid FROM pg_class
        WHERE relnamespace = $1::regnamespace AND relkind IN ('r', 'p') AND NOT (relname = ANY($2))
       UNION
       SELECT con.conrelid FROM pg_constraint con JOIN emptied e ON con.confrelid = e.oid
        WHERE con.contype = 'f'
     )
     SELECT c.oid, format('%I.%I', n.nspname, c.relname) AS name
       FROM emptied e JOIN pg_class c ON c.oid = e.oid JOIN pg_namespace n ON n.oid = c.relnamespace`,
    [schema, [...RUNNER_TABLES, ...keep]],
  );
  const { rows: sequences } = await client.query<{ name: string }>(
    `SELECT format('%I.%I', n.nspname, s.relname) AS name
       FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_namespace n ON n.oid = s.relnamespace
      WHERE d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i') AND d.refobjid = ANY($1)`,
    [rows.map((r) => r.oid)],
  );
  return [
    'BEGIN',
    'SET LOCAL session_replication_role = replica',
    ...rows.map((r) => `DELETE FROM ${r.name}`),
    ...sequences.map((s) => `ALTER SEQUENCE ${s.name} RESTART`),
    'COMMIT',
  ].join(';\n');
}

/**
 * A statement made on first use for a set of table names, in whichever order they come, then
 * reused: the schema does not change after its migrations. `key` names the set.
 */
function oncePerTables<T>(make: (tables: string[], key: string) => Promise<T>) {
  const made = new Map<string, Promise<T>>();
  return (tables: string[]): Promise<T> => {
    const key = [...tables].sort().join(',');
    let statement = made.get(key);
    if (!statement) {
      statement = make(tables, key);
      made.set(key, statement);
    }
    return statement;
  };
}

interface SnapshotStatement {
  name: string;
  text: string;
  tables: string[];
}

/**
 * The query behind `snapshot`: each table of the schema but the migration runner's and `except`,
 * with its row count and an md5 of its rows in order.
 */
async function snapshotStatement(
  c: Client,
  schema: string,
  except: string[],
  key: string,
): Promise<SnapshotStatement> {
  const { rows } = await c.query<{ tablename: string }>(
    'SELECT tablename FROM pg_tables WHERE schemaname = $1 AND NOT (tablename = ANY($2)) ORDER BY tablename',
    [schema, [...RUNNER_TABLES, ...except]],
  );
  const tables = rows.map((r) => r.tablename);
  const text = tables
    .map(
      (table, i) =>
        `SELECT $${i + 1}::text AS t, count(*)::int AS n, coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS h FROM "${schema}"."${table}" x`,
    )
    .join(' UNION ALL ');
  return { name: `snapshot:${key}`, text, tables };
}

/**
 * A fresh database for one test file on the test server, migrated for one service's schema (a
 * copy of the run's template). Each file gets its own, so files run in parallel and never see
 * each other's rows.
 */
export async function createTestDatabase(options: {
  schema: string;
  migrationsDir: string;
}): Promise<TestDatabase> {
  const template = await migratedTemplate(options);
  const name = `test_${options.schema}_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl(), (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  const dbUrl = databaseUrl(name);
  let connection: Promise<Client> | null = null;
  const client = () => {
    connection ??= (async () => {
      const opened = new Client({ connectionString: dbUrl });
      await opened.connect();
      return opened;
    })();
    return connection;
  };
  const emptyingFor = oncePerTables(async (keep) =>
    emptyingStatement(await client(), options.schema, keep),
  );
  const snapshotFor = oncePerTables(async (except, key) =>
    snapshotStatement(await client(), options.schema, except, key),
  );

  return {
    url: dbUrl,
    query: async (sql, params) => (await (await client()).query(sql, params)).rows,
    truncate: async (keep = []) => {
      await (await client()).query(await emptyingFor(keep));
    },
    snapshot: async (except = []) => {
      const { name, text, tables } = await snapshotFor(except);
      if (tables.length === 0) return {};
      // Prepared once per connection: planning the union of every table costs more than running it.
      const { rows } = await (
        await client()
      ).query<{ t: string; n: number; h: string }>({ name, text, values: tables });
      return Object.fromEntries(rows.map((r) => [r.t, `${r.n} rows ${r.h}`]));
    },
    drop: async () => {
      if (connection) await (await connection).end();
      await withClient(adminUrl(), (c) =>
        c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}
