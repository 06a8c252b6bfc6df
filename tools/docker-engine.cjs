// A real Docker engine for tests: the one DOCKER_HOST names, else a private dockerd started here
// (tools/docker-engine/private-daemon.cjs). A detached keeper process (this file run as `keep`)
// owns the private daemon: it stops the daemon and removes its bridge, mounts and folder when
// the test run calls stop() or dies in any way (its stdin pipe closes), and a Ctrl-C in the
// terminal never reaches it half-way. Startup removes what crashed earlier runs left behind.
//
//   node tools/docker-engine.cjs serve   keeps a private engine up for repeated runs and prints
//                                        its DOCKER_HOST; Ctrl-C stops it and cleans up.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { engineRequest, ping } = require('./docker-engine/engine-api.cjs');

/** @param {string} command */
function onPath(command) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, command), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Synchronous guess used by Jest configs: can a run have an engine at all? */
function engineAvailable() {
  return Boolean(process.env.DOCKER_HOST) || (onPath('dockerd') && process.getuid?.() === 0);
}

/**
 * The engine for a test run: DOCKER_HOST when it answers (stop does nothing), else a private
 * dockerd when this machine has one and we are root, else null. `kind` says which. With
 * `privateOnly`, always a private dockerd (a second engine beside the run's, for two agents).
 * @param {{ privateOnly?: boolean }} [options]
 */
async function startTestEngine({ privateOnly = false } = {}) {
  const external = privateOnly ? undefined : process.env.DOCKER_HOST;
  if (external && (await ping(external))) {
    return { host: external, kind: 'DOCKER_HOST', logTail: () => '', stop: async () => {} };
  }
  if (!onPath('dockerd') || process.getuid?.() !== 0) return null;

  const keeper = spawn(process.execPath, [__filename, 'keep'], {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  keeper.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((resolve) => keeper.once('exit', resolve));
  /** @type {{ host: string, cached: boolean }} */
  const started = await new Promise((resolve, reject) => {
    let out = '';
    keeper.stdout.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve(JSON.parse(out));
    });
    exited.then(() => reject(new Error(`the test engine did not start: ${stderr.trim()}`)));
  });
  // The keeper must never hold the test run open; stop() or the run's exit ends it.
  // A child's pipes are sockets: they hold the event loop like the child does.
  const pipes = /** @type {import('node:net').Socket[]} */ ([
    keeper.stdin,
    keeper.stdout,
    keeper.stderr,
  ]);
  const handles = [keeper, ...pipes];
  for (const handle of handles) handle.unref();
  return {
    host: started.host,
    kind: started.cached ? 'private, cached images' : 'private, fresh',
    /** The daemon's last log lines, for a failure's message (its folder goes at stop). */
    logTail: () => {
      const log = path.join(path.dirname(started.host.slice('unix://'.length)), 'dockerd.log');
      return fs.existsSync(log)
        ? fs.readFileSync(log, 'utf8').split('\n').slice(-20).join('\n')
        : '';
    },
    stop: async () => {
      for (const handle of handles) handle.ref();
      keeper.stdin.end();
      await exited;
    },
  };
}

/** @param {string | undefined} mode */
async function main(mode) {
  if (mode !== 'keep' && mode !== 'serve') {
    process.stderr.write('usage: node tools/docker-engine.cjs serve\n');
    process.exit(2);
  }
  const { startPrivateEngine } = require('./docker-engine/private-daemon.cjs');
  let engine;
  try {
    engine = await startPrivateEngine();
  } catch (error) {
    process.stderr.write(`${/** @type {Error} */ (error).message}\n`);
    process.exit(1);
  }
  let stopping;
  const stop = () => (stopping ??= engine.stop().then(() => process.exit(0)));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
  if (mode === 'keep') {
    process.stdout.write(`${JSON.stringify({ host: engine.host, cached: engine.cached })}\n`);
    process.stdin.on('end', stop).on('close', stop).on('error', stop).resume();
  } else {
    process.stdout.write(`export DOCKER_HOST=${engine.host}\n(Ctrl-C stops the engine)\n`);
  }
}

if (require.main === module) main(process.argv[2]);

module.exports = { engineAvailable, engineRequest, startTestEngine };
