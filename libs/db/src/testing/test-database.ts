import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate, RUNNER_TABLES } from '../migrate';

export interface TestDatabase {
  url: string;
  /** Empties every table of the schema except those listed (and the migration runner's). */
  truncate: (keep?: string[]) => Promise<void>;
  /** Runs one statement with a short-lived connection (for assertions on raw rows). */
  query: <T extends object = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
  ) => Promise<T[]>;
  /**
   * Row count and checksum of every table of the schema but `except` (and the migration history): equal
   * snapshots mean nothing was written in between. One connection, kept until `drop`.
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
 * A fresh database for one test file on the test server, migrated for one service's schema.
 * Each file gets its own, so files run in parallel and never see each other's rows.
 */
export async function createTestDatabase(options: {
  schema: string;
  migrationsDir: string;
}): Promise<TestDatabase> {
  const name = `test_${options.schema}_${randomBytes(6).toString('hex')}`;
  const admin = adminUrl();
  await withClient(admin, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  await migrate({
    connectionString: dbUrl,
    schema: options.schema,
    migrationsDir: options.migrationsDir,
  });
  let snapshotClient: Promise<Client> | null = null;
  const snapshotter = () => {
    snapshotClient ??= (async () => {
      const client = new Client({ connectionString: dbUrl });
      await client.connect();
      return client;
    })();
    return snapshotClient;
  };

  return {
    url: dbUrl,
    query: (sql, params) => withClient(dbUrl, async (c) => (await c.query(sql, params)).rows),
    truncate: (keep = []) =>
      withClient(dbUrl, async (c) => {
        const { rows } = await c.query<{ tablename: string }>(
          'SELECT tablename FROM pg_tables WHERE schemaname = $1 AND NOT (tablename = ANY($2))',
          [options.schema, [...RUNNER_TABLES, ...keep]],
        );
        if (rows.length === 0) return;
        const tables = rows.map((r) => `"${options.schema}"."${r.tablename}"`).join(', ');
        await c.query(`TRUNCATE ${tables} RESTART IDENTITY CASCADE`);
      }),
    snapshot: async (except = []) => {
      const client = await snapshotter();
      const { rows: tables } = await client.query<{ tablename: string }>(
        'SELECT tablename FROM pg_tables WHERE schemaname = $1 AND NOT (tablename = ANY($2)) ORDER BY tablename',
        [options.schema, [...RUNNER_TABLES, ...except]],
      );
      if (tables.length === 0) return {};
      const sql = tables
        .map(
          ({ tablename }, i) =>
            `SELECT $${i + 1}::text AS t, count(*)::int AS n, coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') AS h FROM "${options.schema}"."${tablename}" x`,
        )
        .join(' UNION ALL ');
      const { rows } = await client.query<{ t: string; n: number; h: string }>(
        sql,
        tables.map((r) => r.tablename),
      );
      return Object.fromEntries(rows.map((r) => [r.t, `${r.n} rows ${r.h}`]));
    },
    drop: async () => {
      if (snapshotClient) await (await snapshotClient).end();
      await withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
