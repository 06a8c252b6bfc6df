#!/usr/bin/env node
// `npm run workspace -- …` and `npm run calendar -- …`: builds the app, makes sure a database is
// there (the embedded one unless DATABASE_URL is set), and runs the app's own CLI.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { assertReachableAsRoot, startLocalPostgres } = require('./local-postgres.cjs');
const { SERVICES, buildApps, serviceEnv } = require('./services.cjs');

async function main() {
  const [name, ...args] = process.argv.slice(2);
  const service = SERVICES.find((s) => s.name === name);
  if (!service) throw new Error(`Unknown service ${name}`);
  if (!process.env.DATABASE_URL) assertReachableAsRoot('dev');
  buildApps([name]);
  const local = process.env.DATABASE_URL ? null : await startLocalPostgres('dev');
  try {
    // Without DATABASE_URL, local is the embedded server started above.
    const env = serviceEnv(
      service,
      process.env.DATABASE_URL ?? /** @type {{ url: string }} */ (local).url,
    );
    const result = spawnSync(process.execPath, [path.join(service.dist, 'cli.js'), ...args], {
      stdio: 'inherit',
      env,
    });
    process.exitCode = result.status ?? 1;
  } finally {
    await local?.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
