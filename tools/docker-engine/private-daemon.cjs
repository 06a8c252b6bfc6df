// A private dockerd for one test run: socket, exec-root and pidfile in a fresh temp folder, its
// own bridge on an unused 172.30.x.0/24 (sessions' own networks: /26s of 172.24.0.0/14, none a
// route on the machine has), no iptables rules and no sysctl changes, so it never clashes with
// another daemon on the machine. Its data-root is the image cache in the cache folder
// outside the clone (tools/cache-dir.cjs; one run at a time, whichever clone it comes from; a
// concurrent run gets a data-root in its temp folder),
// emptied of everything but the test and workspace images at start and stop.
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cacheDir } = require('../cache-dir.cjs');
const { clearEngine, ping } = require('./engine-api.cjs');

const CACHE_DIR = cacheDir('docker-engine');
const FOLDER_PREFIX = 'platform-engine-';
const BRIDGE_PREFIX = 'pteng';
// dockerd's first answer: it restores its data-root first, slow on a loaded machine; the wait
// ends as soon as it answers.
const READY_TIMEOUT_MS = 300_000;
const EXIT_TIMEOUT_MS = 30_000;

/**
 * Whether pid runs; a zombie (exited, not yet reaped by a busy or absent init) does not.
 * @param {number} pid
 */
function alive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
  return !/^\d+ \(.*\) Z/.test(read(`/proc/${pid}/stat`));
}

/** @param {string} file */
function read(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

const readPid = (/** @type {string} */ file) => Number(read(file)) || 0;

/**
 * @param {() => boolean | Promise<boolean>} check
 * @param {number} timeoutMs
 */
async function waitUntil(check, timeoutMs, intervalMs = 50) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return check();
}

/** @param {string[]} args */
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

/**
 * Unmounts everything under dir, deepest first (the daemon's netns and data-root bind mounts).
 * @param {string} dir
 */
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
 * Processes of a daemon: dockerd, its containerd and shims name its folder (or data-root) on
 * their command line; its docker-proxy processes name a container address in its subnet.
 * @param {string} dir
 */
function processesNaming(dir, subnet = '') {
  /** @type {number[]} */
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const args = read(`/proc/${entry}/cmdline`).split('\0');
    const ours =
      args.some((arg) => arg.includes(dir + '/') || arg.endsWith('=' + dir)) ||
      (subnet !== '' &&
        path.basename(args[0]) === 'docker-proxy' &&
        args.some((arg) => arg.startsWith(subnet + '.')));
    if (ours) pids.push(Number(entry));
  }
  return pids;
}

/** @param {number[]} pids */
function killAll(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
  }
}

/** The cache's data-root when no live keeper holds it, else null (then a fresh one is used). */
function claimCache() {
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const lock = path.join(CACHE_DIR, 'keeper.pid');
  const holder = readPid(lock);
  if (alive(holder)) return null;
  if (holder && readPid(lock) === holder) fs.rmSync(lock, { force: true });
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch {
    return null;
  }
  // A holder that died may have left its daemon running or its mounts in place.
  const dataRoot = path.join(CACHE_DIR, 'data');
  killAll(processesNaming(dataRoot));
  unmountUnder(dataRoot);
  return dataRoot;
}

/** @param {number} keeperPid */
function releaseCache(keeperPid) {
  const lock = path.join(CACHE_DIR, 'keeper.pid');
  if (keeperPid && readPid(lock) === keeperPid) fs.rmSync(lock, { force: true });
}

/**
 * Stops a folder's daemon by its PID, then removes its processes, mounts, bridge and folder.
 * @param {string} dir
 * @param {{ clear: boolean }} options clear: empty the engine before stopping it
 */
async function cleanUp(dir, { clear }) {
  const daemonPid = readPid(path.join(dir, 'docker.pid'));
  const subnet = read(path.join(dir, 'subnet'));
  if (alive(daemonPid) && processesNaming(dir).includes(daemonPid)) {
    if (clear) await clearEngine(`unix://${dir}/docker.sock`, { images: false }).catch(() => {});
    process.kill(daemonPid, 'SIGTERM');
    if (!(await waitUntil(() => !alive(daemonPid), EXIT_TIMEOUT_MS, 100))) {
      process.kill(daemonPid, 'SIGKILL');
    }
  }
  killAll(processesNaming(dir, subnet));
  unmountUnder(dir);
  const dataRoot = read(path.join(dir, 'data-root'));
  const keeperPid = readPid(path.join(dir, 'keeper.pid'));
  // Only the cache's holder may touch its mounts; a later holder may be using it by now.
  if (dataRoot && keeperPid === process.pid) unmountUnder(dataRoot);
  if (dataRoot) releaseCache(keeperPid);
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
    // A folder without a pid file yet may belong to a keeper that has only just created it.
    const keeperPid = readPid(path.join(dir, 'keeper.pid'));
    const young = !keeperPid && Date.now() - fs.statSync(dir).mtimeMs < 5_000;
    if (alive(keeperPid) || young) {
      live.add(name.slice(FOLDER_PREFIX.length));
    } else {
      await cleanUp(dir, { clear: false });
    }
  }
  for (const link of links().filter((l) => l.startsWith(BRIDGE_PREFIX))) {
    if (!live.has(link.slice(BRIDGE_PREFIX.length))) ip('link', 'delete', link);
  }
}

/**
 * @param {string} dir
 * @param {string} dataRoot
 * @param {string} bridge
 * @param {string} host
 */
function startDaemon(dir, dataRoot, bridge, host) {
  const log = fs.openSync(path.join(dir, 'dockerd.log'), 'a');
  const daemon = spawn(
    'dockerd',
    [
      `--host=${host}`,
      `--data-root=${dataRoot}`,
      `--exec-root=${dir}/exec`,
      `--pidfile=${dir}/docker.pid`,
      `--bridge=${bridge}`,
      // Published ports still work through docker-proxy; the machine's firewall stays untouched.
      '--iptables=false',
      '--ip-forward=false',
      '--ip-masq=false',
      // Each session has a network of its own: small ones, so a run's many sessions fit.
      '--default-address-pool=base=172.24.0.0/14,size=26',
    ],
    { stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  return daemon;
}

/** Runs in the keeper process: starts the daemon and returns its host and a stop function. */
async function startPrivateEngine() {
  await removeStale();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), FOLDER_PREFIX));
  fs.writeFileSync(path.join(dir, 'keeper.pid'), String(process.pid));
  const bridge = BRIDGE_PREFIX + path.basename(dir).slice(FOLDER_PREFIX.length);
  const host = `unix://${dir}/docker.sock`;
  const stop = () => cleanUp(dir, { clear: true });
  try {
    const cached = claimCache();
    if (cached) fs.writeFileSync(path.join(dir, 'data-root'), cached);
    ip('link', 'add', 'name', bridge, 'type', 'bridge');
    const subnet = freeSubnet();
    fs.writeFileSync(path.join(dir, 'subnet'), subnet);
    ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    const daemon = startDaemon(dir, cached ?? `${dir}/data`, bridge, host);
    let exited = false;
    daemon.once('exit', () => (exited = true));
    const ready = await waitUntil(async () => exited || (await ping(host)), READY_TIMEOUT_MS);
    if (!ready || exited) {
      const tail = read(path.join(dir, 'dockerd.log')).split('\n').slice(-15).join('\n');
      throw new Error(
        `dockerd did not answer /_ping within ${READY_TIMEOUT_MS / 1000} s:\n${tail}`,
      );
    }
    if (cached) await clearEngine(host, { images: true });
    return { host, cached: Boolean(cached), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

module.exports = { startPrivateEngine };
