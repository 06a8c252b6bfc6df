// The PostgreSQL server the bench runs on, and the throwaway database it creates there:
// BENCH_DATABASE_URL when given, else the machine's server on 127.0.0.1:5432 when it answers,
// else an embedded PostgreSQL with its own data folder and port.
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** @type {typeof import('../../tools/local-postgres.cjs')} */
const { isListening, startLocalPostgres } = createRequire(import.meta.url)(
  '../../tools/local-postgres.cjs',
);

async function startEmbedded() {
  const { url, stop } = await startLocalPostgres('bench');
  // The bench creates its own databases: it connects to the maintenance one.
  const server = new URL(url);
  server.pathname = '/postgres';
  return { url: server.toString(), kind: `embedded PostgreSQL on port ${server.port}`, stop };
}

async function chooseServer() {
  if (process.env.BENCH_DATABASE_URL) {
    return {
      url: process.env.BENCH_DATABASE_URL,
      kind: 'BENCH_DATABASE_URL',
      stop: async () => {},
    };
  }
  // BENCH_DATABASE=embedded: the embedded server even when the machine has one.
  if (process.env.BENCH_DATABASE !== 'embedded' && (await isListening(5432))) {
    return {
      url: 'postgres://postgres@127.0.0.1:5432/postgres',
      kind: 'PostgreSQL on 127.0.0.1:5432',
      stop: async () => {},
    };
  }
  return startEmbedded();
}

/**
 * @template T
 * @param {string} url
 * @param {(client: pg.Client) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** @typedef {Awaited<ReturnType<typeof createBenchDatabase>>} BenchDatabase */

/** Creates `bench_<random>` on the chosen server; `drop` removes it and stops what was started. */
export async function createBenchDatabase() {
  const server = await chooseServer();
  const name = `bench_${randomBytes(5).toString('hex')}`;
  await withClient(server.url, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  const version = await withClient(
    url.toString(),
    async (c) => (await c.query('SHOW server_version')).rows[0].server_version,
  );
  return {
    url: url.toString(),
    name,
    server: `${server.kind}, PostgreSQL ${version}`,
    /**
     * @param {string} sql
     * @param {unknown[]} [params]
     */
    query: (sql, params) =>
      withClient(url.toString(), async (c) => (await c.query(sql, params)).rows),
    drop: async () => {
      await withClient(server.url, (c) =>
        c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
      await server.stop();
    },
  };
}
