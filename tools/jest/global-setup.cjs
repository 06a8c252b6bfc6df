// Tests use TEST_DATABASE_URL when it is set, else an embedded PostgreSQL started here. Each Jest
// run has its own TEST_RUN_ID: the test databases of its files are copies of the run's migrated
// templates (libs/db/src/testing), which its global teardown drops.
const { randomBytes } = require('node:crypto');
const { startLocalPostgres } = require('../local-postgres.cjs');

module.exports = async () => {
  process.env.TEST_RUN_ID = randomBytes(4).toString('hex');
  if (process.env.TEST_DATABASE_URL) return;
  let local;
  try {
    local = await startLocalPostgres('test');
  } catch (error) {
    // What to do, in a sentence, rather than Jest's stack trace of the launcher.
    process.stderr.write(`\n${/** @type {Error} */ (error).message}\n`);
    process.exit(1);
  }
  process.env.TEST_DATABASE_URL = local.url;
  globalThis.__stopTestPostgres = local.stop;
};
