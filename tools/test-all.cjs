// @ts-check
// npm test: every project's tests through Nx, several tasks at once (workspace-api's suite is
// two of them: apps/workspace-api/jest.config.cjs). The Jest runs share one PostgreSQL:
// TEST_DATABASE_URL, else the embedded test server started here, once; each run's global setup
// would otherwise start it, and stop it, under the runs beside it.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { startLocalPostgres } = require('./local-postgres.cjs');

/** Nx tasks at once: workspace-api's engine and other tests, and one other project's. */
const PARALLEL = Number(process.env.TEST_PARALLEL) || 3;
const NX = path.join(path.dirname(require.resolve('nx/package.json')), 'dist/bin/nx.js');

async function main() {
  let stop = async () => {};
  if (!process.env.TEST_DATABASE_URL) {
    try {
      const local = await startLocalPostgres('test');
      process.env.TEST_DATABASE_URL = local.url;
      stop = local.stop;
    } catch (error) {
      process.stderr.write(`${/** @type {Error} */ (error).message}\n`);
      process.exit(1);
    }
  }
  // Ctrl-C reaches Nx too; this process waits for it to end, then stops the server.
  process.on('SIGINT', () => {});
  const args = ['run-many', '-t', 'test', `--parallel=${PARALLEL}`, '--outputStyle=stream'];
  const nx = spawn(process.execPath, [NX, ...args, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  const code = await new Promise((resolve) => nx.once('exit', (status) => resolve(status ?? 1)));
  await stop();
  process.exit(code);
}

main();
