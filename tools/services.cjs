// What `npm start` and the CLIs need to know about the two services, in one place.
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..');

const SERVICES = [
  { name: 'workspace-api', port: 3001, portVar: 'WORKSPACE_API_PORT' },
  { name: 'calendar-api', port: 3002, portVar: 'CALENDAR_API_PORT' },
].map((s) => ({ ...s, dist: path.join(ROOT, 'apps', s.name, 'dist') }));

const NX_ENV = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

// On a developer's machine a registry or webhook on localhost is normal (README: a registry
// served with python3 -m http.server); deployments keep the default, public addresses only.
// Sessions run on this machine's Docker engine when one answers, opened over plain HTTP.
const LOCAL_DEFAULTS = {
  OUTBOUND_ALLOWLIST: 'localhost,127.0.0.0/8,::1',
  LOCAL_AGENT: 'on',
  SESSION_URL_SCHEME: 'http',
};

/**
 * The environment a service's server or CLI runs with under `npm start` and `npm run <service>`:
 * the local defaults, the caller's environment, the database, and the port from
 * WORKSPACE_API_PORT / CALENDAR_API_PORT, so that what the CLI prints matches where it listens.
 */
function serviceEnv(service, databaseUrl, env = process.env) {
  const port = env[service.portVar] || String(service.port);
  return { ...LOCAL_DEFAULTS, ...env, DATABASE_URL: databaseUrl, PORT: port };
}

/** Builds the given apps through Nx (cached: a second run takes well under a second). */
function buildApps(names) {
  const result = spawnSync(
    'npx',
    [
      'nx',
      'run-many',
      '-t',
      'build',
      '--projects',
      names.map((n) => `@platform/${n}`).join(','),
      '--outputStyle=static',
    ],
    { cwd: ROOT, env: { ...process.env, ...NX_ENV }, encoding: 'utf8' },
  );
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error('Build failed');
  }
}

module.exports = { ROOT, SERVICES, NX_ENV, buildApps, serviceEnv };
