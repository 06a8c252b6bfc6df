// A real Docker engine for tests: the one DOCKER_HOST names, else a private dockerd started here.
//
// The private daemon lives in a fresh temp folder with its own bridge, no iptables rules and no
// sysctl changes, so it never clashes with another daemon on the machine. A detached keeper
// process (this file run as `keep`) owns it: the keeper stops the daemon and removes the bridge,
// mounts and folder when the test run calls stop() or dies in any way (its stdin pipe closes),
// and a Ctrl-C in the terminal never reaches it half-way. Startup also removes what crashed
// earlier runs left behind.
//
//   node tools/docker-engine.cjs serve   keeps a private engine up for repeated runs and prints
//                                        its DOCKER_HOST; Ctrl-C stops it and cleans up.
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const FOLDER_PREFIX = 'platform-engine-';
const BRIDGE_PREFIX = 'pteng';
const READY_TIMEOUT_MS = 60_000;
const EXIT_TIMEOUT_MS = 30_000;

/** Calls the Engine API of a `unix://` or `tcp://` host; resolves with status and raw body. */
function engineRequest(host, method, urlPath, { body, headers = {}, timeoutMs = 30_000 } = {}) {
  const url = host.startsWith('unix://') ? null : new URL(host.replace(/^tcp:/, 'http:'));
  const target = url
    ? { host: url.hostname, port: url.port || 2375 }
    : { socketPath: host.slice('unix://'.length) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { ...target, method, path: urlPath, headers, timeout: timeoutMs },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath} on ${host} timed out`)));
    req.on('error', reject);
    if (body && typeof body.pipe === 'function') body.pipe(req);
    else req.end(body);
  });
}

function ping(host) {
  return engineRequest(host, 'GET', '/_ping', { timeoutMs: 2_000 }).then(
    (r) => r.status === 200,
    () => false,
  );
}

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

function alive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function readPid(file) {
  try {
    return Number(fs.readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check, timeoutMs, intervalMs = 50) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(intervalMs);
  }
  return check();
}

function ip(...args) {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function links() {
  return ip('-o', 'link', 'show')
    .split('\n')
    .map((line) => line.split(': ')[1]?.split('@')[0])
    .filter(Boolean);
}

/** A 172.30.x.0/24 that no interface address or route on the machine touches. */
function freeSubnet() {
  const used = ip('-4', '-o', 'addr', 'show') + ip('-4', 'route', 'show');
  for (let attempt = 0; attempt < 64; attempt++) {
    const x = Math.floor(Math.random() * 256);
    if (!used.includes(`172.30.${x}.`)) return `172.30.${x}`;
  }
  throw new Error('no free 172.30.x.0/24 subnet for the test engine bridge');
}

/** Unmounts everything under dir, deepest first (the daemon's netns and data-root bind mounts). */
function unmountUnder(dir) {
  const mounts = fs
    .readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1]?.replace(/\\040/g, ' '))
    .filter((m) => m && (m === dir || m.startsWith(dir + '/')))
    .sort((a, b) => b.length - a.length);
  for (const mount of mounts) {
    try {
      execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
    } catch {
      // Already gone: a parent's lazy unmount took it along.
    }
  }
}

/**
 * The folder's daemon, its containerd and shims (their command lines name the folder) and its
 * docker-proxy processes (they name a container address in the folder's subnet).
 */
function processesOf(dir) {
  let subnet = null;
  try {
    subnet = fs.readFileSync(path.join(dir, 'subnet'), 'utf8').trim();
  } catch {
    // The bridge was never addressed.
  }
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const ours =
        cmdline.some((arg) => arg.includes(dir + '/')) ||
        (subnet !== null &&
          path.basename(cmdline[0]) === 'docker-proxy' &&
          cmdline.some((arg) => arg.startsWith(subnet + '.')));
      if (ours) pids.push(Number(entry));
    } catch {
      // It exited while we looked.
    }
  }
  return pids;
}

/** Containers left running would each hold the daemon's shutdown for their stop timeout. */
async function removeContainers(host) {
  try {
    const { status, body } = await engineRequest(host, 'GET', '/containers/json?all=true');
    if (status !== 200) return;
    await Promise.all(
      JSON.parse(body).map((c) =>
        engineRequest(host, 'DELETE', `/containers/${c.Id}?force=true&v=true`),
      ),
    );
  } catch {
    // The daemon no longer answers; stopping it is all that is left.
  }
}

/** Removes a folder's daemon, mounts and bridge; its keeper is gone or is us. */
async function cleanUp(dir) {
  const daemonPid = readPid(path.join(dir, 'docker.pid'));
  if (alive(daemonPid) && processesOf(dir).includes(daemonPid)) {
    await removeContainers(`unix://${dir}/docker.sock`);
    process.kill(daemonPid, 'SIGTERM');
    if (!(await waitUntil(() => !alive(daemonPid), EXIT_TIMEOUT_MS, 100)))
      process.kill(daemonPid, 'SIGKILL');
  }
  for (const pid of processesOf(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
  }
  unmountUnder(dir);
  const bridge = BRIDGE_PREFIX + path.basename(dir).slice(FOLDER_PREFIX.length);
  if (links().includes(bridge)) ip('link', 'delete', bridge);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Folders and bridges of earlier runs whose keeper died without cleaning up. */
async function removeStale() {
  const tmp = os.tmpdir();
  const live = new Set();
  for (const name of fs.readdirSync(tmp).filter((n) => n.startsWith(FOLDER_PREFIX))) {
    const dir = path.join(tmp, name);
    const suffix = name.slice(FOLDER_PREFIX.length);
    // A folder younger than a few seconds may belong to a keeper still writing its pid file.
    const young = Date.now() - fs.statSync(dir).mtimeMs < 5_000;
    if (alive(readPid(path.join(dir, 'keeper.pid'))) || young) live.add(suffix);
    else await cleanUp(dir);
  }
  for (const link of links().filter((l) => l.startsWith(BRIDGE_PREFIX))) {
    if (!live.has(link.slice(BRIDGE_PREFIX.length))) ip('link', 'delete', link);
  }
}

/** Runs in the keeper process: starts the daemon and returns its host and a stop function. */
async function startPrivateEngine() {
  await removeStale();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), FOLDER_PREFIX));
  fs.writeFileSync(path.join(dir, 'keeper.pid'), String(process.pid));
  const bridge = BRIDGE_PREFIX + path.basename(dir).slice(FOLDER_PREFIX.length);
  const host = `unix://${dir}/docker.sock`;
  const stop = () => cleanUp(dir);
  try {
    ip('link', 'add', 'name', bridge, 'type', 'bridge');
    const subnet = freeSubnet();
    fs.writeFileSync(path.join(dir, 'subnet'), subnet);
    ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    const log = fs.openSync(path.join(dir, 'dockerd.log'), 'a');
    const daemon = spawn(
      'dockerd',
      [
        `--host=${host}`,
        `--data-root=${dir}/data`,
        `--exec-root=${dir}/exec`,
        `--pidfile=${dir}/docker.pid`,
        `--bridge=${bridge}`,
        // Published ports still work through docker-proxy; the machine's firewall stays untouched.
        '--iptables=false',
        '--ip-forward=false',
        '--ip-masq=false',
      ],
      { stdio: ['ignore', log, log] },
    );
    fs.closeSync(log);
    let exited = false;
    daemon.once('exit', () => (exited = true));
    const ready = await waitUntil(async () => exited || (await ping(host)), READY_TIMEOUT_MS);
    if (!ready || exited) {
      const tail = fs
        .readFileSync(path.join(dir, 'dockerd.log'), 'utf8')
        .split('\n')
        .slice(-15)
        .join('\n');
      throw new Error(
        `dockerd did not answer /_ping within ${READY_TIMEOUT_MS / 1000} s:\n${tail}`,
      );
    }
    return { host, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The engine for a test run: DOCKER_HOST when it answers (stop does nothing), else a private
 * dockerd when this machine has one and we are root, else null.
 */
async function startTestEngine() {
  const external = process.env.DOCKER_HOST;
  if (external && (await ping(external))) return { host: external, stop: async () => {} };
  if (!onPath('dockerd') || process.getuid?.() !== 0) return null;

  const keeper = spawn(process.execPath, [__filename, 'keep'], {
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  keeper.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise((resolve) => keeper.once('exit', resolve));
  const host = await new Promise((resolve, reject) => {
    let out = '';
    keeper.stdout.on('data', (c) => {
      out += c;
      if (out.includes('\n')) resolve(out.trim());
    });
    exited.then(() => reject(new Error(`the test engine did not start: ${stderr.trim()}`)));
  });
  // The keeper must never hold the test run open; stop() or the run's exit ends it.
  const handles = [keeper, keeper.stdin, keeper.stdout, keeper.stderr];
  for (const handle of handles) handle.unref();
  return {
    host,
    stop: async () => {
      for (const handle of handles) handle.ref();
      keeper.stdin.end();
      await exited;
    },
  };
}

async function main(mode) {
  if (mode !== 'keep' && mode !== 'serve') {
    process.stderr.write('usage: node tools/docker-engine.cjs serve\n');
    process.exit(2);
  }
  let engine;
  try {
    engine = await startPrivateEngine();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  let stopping;
  const stop = () => (stopping ??= engine.stop().then(() => process.exit(0)));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
  if (mode === 'keep') {
    process.stdout.write(`${engine.host}\n`);
    process.stdin.on('end', stop).on('close', stop).on('error', stop).resume();
  } else {
    process.stdout.write(`export DOCKER_HOST=${engine.host}\n(Ctrl-C stops the engine)\n`);
  }
}

if (require.main === module) main(process.argv[2]);

module.exports = { engineAvailable, engineRequest, startTestEngine };
