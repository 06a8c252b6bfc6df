// What `npm start` and the CLIs need to know about the two services, in one place.
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');

const ROOT = path.join(__dirname, '..');

/**
 * @typedef {object} Service
 * @property {string} name the app's folder under apps/
 * @property {number} port its default port
 * @property {string} portVar the variable that changes it
 * @property {string} dist its built output
 * @property {string[]} nodeFlags Node's own flags for its server, wherever it runs: npm start and
 *   the bench give them, the image's NODE_OPTIONS names them (tools/test/service-node-flags.test.ts)
 * @property {{ port: number, portVar: string }} [sessions] its sessions listener (SESSION_PORT), another origin than its pages'
 */

/** @type {Service[]} */
const SERVICES = [
  {
    name: 'workspace-api',
    port: 3001,
    portVar: 'WORKSPACE_API_PORT',
    sessions: { port: 3003, portVar: 'WORKSPACE_SESSIONS_PORT' },
    // A young generation of at most 4 MiB per semi-space (V8's default is 16) keeps an idle
    // workspace-api at about 140 MiB instead of 160 (the space the start-up's garbage grew stays
    // committed). calendar-api is under 150 MiB without it, and its big answers (a week's
    // events) would pay for it: 0.97 of raw pg with V8's default, 0.69 with the cap
    // (bench/README.md).
    nodeFlags: ['--max-semi-space-size=4'],
  },
  { name: 'calendar-api', port: 3002, portVar: 'CALENDAR_API_PORT', nodeFlags: [] },
].map((s) => ({ ...s, dist: path.join(ROOT, 'apps', s.name, 'dist') }));

const NX_ENV = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

// On a developer's machine a registry or webhook on localhost is normal (a registry served with
// python3 -m http.server, docs/groups-images-registry.md); deployments keep the default, public
// addresses only.
// Sessions run on this machine's Docker engine when one answers, opened over plain HTTP, and
// the proxy reaches them through the socket hop (docs/sessions.md).
// A registry in a local folder (examples/registry) is a development convenience: it lets a key
// with registries.modify read the server's files, so NODE_ENV=production leaves it off.
// The calendar examples (README.md, docs/calendar-api.md) post to channel C123, the CSA class
// (CHANNEL_PERIODS set in the environment replaces this map).
/**
 * npm start's socket hop folder: the checkout's .data/session-sockets, or for a checkout so deep
 * that its sockets' paths (`<folder>/<32 hex>/websockify.sock`) would pass the 107 bytes a Unix
 * socket path may have, a folder of its own in the temporary folder.
 * @param {string} root
 */
function socketsDirOf(root) {
  const inData = path.join(root, '.data', 'session-sockets');
  if (Buffer.byteLength(inData) <= 58) return inData;
  const checkout = crypto.createHash('sha256').update(root).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `workspace-sockets-${checkout}`);
}

const LOCAL_DEFAULTS = {
  OUTBOUND_ALLOWLIST: 'localhost,127.0.0.0/8,::1',
  LOCAL_AGENT: 'on',
  SESSION_SOCKETS_DIR: socketsDirOf(ROOT),
  SESSION_URL_SCHEME: 'http',
  CHANNEL_PERIODS: 'C123=CSA',
};

/**
 * The environment a service's server or CLI runs with under `npm start` and `npm run <service>`:
 * the local defaults, the caller's environment, the database, and the port from
 * WORKSPACE_API_PORT / CALENDAR_API_PORT, so that what the CLI prints matches where it listens;
 * workspace-api's sessions listener from WORKSPACE_SESSIONS_PORT (its zone "local" points there).
 * @param {Service} service
 * @param {string} databaseUrl
 */
function serviceEnv(service, databaseUrl, env = process.env) {
  const port = env[service.portVar] || String(service.port);
  const development = env.NODE_ENV === 'production' ? {} : { REGISTRY_ALLOW_LOCAL_PATHS: 'true' };
  const sessions = service.sessions
    ? { SESSION_PORT: env[service.sessions.portVar] || String(service.sessions.port) }
    : {};
  return {
    ...LOCAL_DEFAULTS,
    ...development,
    ...env,
    ...sessions,
    DATABASE_URL: databaseUrl,
    PORT: port,
  };
}

const SKIPPED = new Set(['node_modules', 'dist', '.data']);

/**
 * The newest modification time of the files and folders below `target` (a deletion changes its folder's).
 * @param {string} target
 * @returns {number}
 */
function newestChange(target) {
  let info;
  try {
    info = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (!SKIPPED.has(entry)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  }
  return newest;
}

/**
 * The apps whose bundle is older than something it is built from: its sources and generated
 * Prisma client, the libs, its Prisma schema, the bundler and the lockfile. Asking Nx costs
 * seconds of CPU even when everything is cached; this costs a few milliseconds.
 * @param {string[]} names
 */
function staleApps(names) {
  return names.filter((name) => {
    const dist = path.join(ROOT, 'apps', name, 'dist');
    const built = Math.min(
      ...['cli.js', 'server.js'].map((f) => newestChange(path.join(dist, f)) || -Infinity),
    );
    const inputs = [
      path.join(ROOT, 'apps', name, 'src'),
      path.join(ROOT, 'apps', name, 'package.json'),
      path.join(ROOT, 'libs'),
      path.join(ROOT, 'prisma', name),
      path.join(ROOT, 'tools', 'build-app.mjs'),
      path.join(ROOT, 'package-lock.json'),
    ];
    return Math.max(...inputs.map(newestChange)) >= built;
  });
}

/**
 * Builds those of the given apps that are stale (staleApps) through Nx.
 * @param {string[]} names
 */
function buildApps(names) {
  const stale = staleApps(names);
  if (stale.length === 0) return;
  const result = spawnSync(
    'npx',
    [
      'nx',
      'run-many',
      '-t',
      'build',
      '--projects',
      stale.map((n) => `@platform/${n}`).join(','),
      '--outputStyle=static',
    ],
    { cwd: ROOT, env: { ...process.env, ...NX_ENV }, encoding: 'utf8' },
  );
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error('Build failed');
  }
  // Nx leaves outputs that match its cache untouched: mark them as current for staleApps.
  const now = new Date();
  for (const name of stale) {
    for (const f of ['cli.js', 'server.js'])
      fs.utimesSync(path.join(ROOT, 'apps', name, 'dist', f), now, now);
  }
}

module.exports = {
  ROOT,
  SERVICES,
  NX_ENV,
  buildApps,
  serviceEnv,
  socketsDirOf,
  staleApps,
};
