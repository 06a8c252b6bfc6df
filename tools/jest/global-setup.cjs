// Tests use TEST_DATABASE_URL when it is set, else an embedded PostgreSQL started here.
const { startLocalPostgres } = require('../local-postgres.cjs');

module.exports = async () => {
  if (process.env.TEST_DATABASE_URL) return;
  const { url, stop } = await startLocalPostgres('test');
  process.env.TEST_DATABASE_URL = url;
  globalThis.__stopTestPostgres = stop;
};
