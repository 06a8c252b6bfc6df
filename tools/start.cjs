#!/usr/bin/env node
// `npm start`: builds both services, starts them on the embedded PostgreSQL (or DATABASE_URL),
// applies migrations, issues the first credentials on an empty database, and stops everything
// cleanly on Ctrl-C or SIGTERM.
const { spawn, spawnSync } = require('node:child_process');
const path = require('node:path');
const { assertReachableAsRoot, startLocalPostgres } = require('./local-postgres.cjs');
const { SERVICES, buildApps, serviceEnv } = require('./services.cjs');

/**
 * A service with what main() learns as it starts it.
 * @typedef {import('./services.cjs').Service & { hasEngine?: boolean, listenPort?: string, sessionPort?: string }} StartedService
 */

/** @type {import('node:child_process').ChildProcessWithoutNullStreams[]} */
const children = [];

/**
 * @param {string} name
 * @param {import('node:stream').Readable} stream
 * @param {NodeJS.WritableStream} out
 */
function prefixed(name, stream, out) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
}

/**
 * @param {string} port
 * @param {import('node:child_process').ChildProcess} child
 */
async function waitReady(port, child) {
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`service on port ${port} did not become ready`);
}

/**
 * With a Docker engine, workspace-api's own registry (the images `npm run workspaces:build`
 * makes) is added once, so the images are there to install; the CLI prints what it did.
 * @param {StartedService} service
 * @param {NodeJS.ProcessEnv} env
 */
function addOwnRegistry(service, env) {
  const cli = (/** @type {string[]} */ ...args) =>
    spawnSync(process.execPath, [path.join(service.dist, 'cli.js'), 'registry', ...args], {
      env,
      encoding: 'utf8',
    });
  const url = `http://localhost:${env.PORT}/registry/`;
  const listed = cli('list');
  if (listed.status !== 0 || listed.stdout.includes(url)) return;
  const added = cli('add', url);
  const said = added.status === 0 ? added.stdout : added.stderr.split('\n').slice(-2).join('\n');
  process.stdout.write(said.trim().replace(/^/gm, `[${service.name}] `) + '\n');
}

/** A folder inside the working folder by its relative path, any other by its full path. */
const shownPath = (/** @type {string} */ dir) =>
  dir.startsWith(`${process.cwd()}${path.sep}`) ? path.relative(process.cwd(), dir) : dir;

async function main() {
  const started = Date.now();
  if (!process.env.DATABASE_URL) assertReachableAsRoot('dev');
  buildApps(SERVICES.map((s) => s.name));
  const local = process.env.DATABASE_URL ? null : await startLocalPostgres('dev');
  // Without DATABASE_URL, local is the embedded server started above.
  const databaseUrl = process.env.DATABASE_URL ?? /** @type {{ url: string }} */ (local).url;

  let stopping = false;
  const stop = async (/** @type {number} */ code) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      children.map((c) =>
        c.exitCode !== null ? null : new Promise((r) => c.once('exit', r).kill('SIGTERM')),
      ),
    );
    await local?.stop();
    process.stdout.write(code === 0 ? 'Stopped.\n' : '');
    process.exit(code);
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));

  /** @type {StartedService[]} */
  const services = SERVICES;
  for (const service of services) {
    const env = serviceEnv(service, databaseUrl);
    const setup = spawnSync(process.execPath, [path.join(service.dist, 'cli.js'), 'setup'], {
      env,
      encoding: 'utf8',
    });
    process.stdout.write(setup.stdout.replace(/^/gm, `[${service.name}] `));
    service.hasEngine = /^Sessions run on the Docker engine/m.test(setup.stdout);
    if (setup.status !== 0) {
      process.stderr.write(setup.stderr);
      return stop(1);
    }
    const child = spawn(
      process.execPath,
      [...service.nodeFlags, path.join(service.dist, 'server.js')],
      {
        env,
      },
    );
    prefixed(service.name, child.stdout, process.stdout);
    prefixed(service.name, child.stderr, process.stderr);
    child.on('exit', (code) => !stopping && stop(code ?? 1));
    children.push(child);
    service.listenPort = env.PORT;
    if (service.sessions) service.sessionPort = env.SESSION_PORT;
  }
  // The loop above set every listenPort.
  await Promise.all(
    services.map((s, i) => waitReady(/** @type {string} */ (s.listenPort), children[i])),
  );
  const workspaceApi = services.find((s) => s.name === 'workspace-api');
  if (workspaceApi?.hasEngine) addOwnRegistry(workspaceApi, serviceEnv(workspaceApi, databaseUrl));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const s of services) {
    process.stdout.write(
      `${s.name} ready on http://localhost:${s.listenPort} (API reference: /docs)${s.sessionPort ? `; sessions on http://localhost:${s.sessionPort}` : ''}\n`,
    );
  }
  process.stdout.write(
    `Both services ready in ${seconds}s${local ? ` on the embedded PostgreSQL in ${shownPath(local.dir)}` : ''}. Ctrl-C stops them.\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
