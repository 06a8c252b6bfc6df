// Drops the run's database templates (tools/jest/global-setup.cjs), then stops the embedded
// PostgreSQL if this run started it.
const { Client } = require('pg');

async function dropTemplates() {
  const run = process.env.TEST_RUN_ID;
  if (!run || !process.env.TEST_DATABASE_URL) return;
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT datname FROM pg_database WHERE datname LIKE 'test\\_template\\_%\\_' || $1",
      [run],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

module.exports = async () => {
  await dropTemplates();
  await globalThis.__stopTestPostgres?.();
};
