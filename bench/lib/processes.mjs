// Child processes of the bench: the services' CLIs and servers (built output, as in production)
// and the baseline server. Server output goes straight to a log file, not through the bench.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { distOf, RESULTS_DIR } from './paths.mjs';

/** @type {typeof import('../../tools/services.cjs')} */
const { SERVICES } = createRequire(import.meta.url)('../../tools/services.cjs');

export const sleep = (/** @type {number} */ ms) =>
  new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A port free right now. Fixed ports let two benches on one machine measure each other's
 * servers (the second server fails to listen, and its readiness check reaches the first).
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `node apps/<app>/dist/cli.js …` and returns its output; throws when it fails.
 * @param {string} app
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
export function runCli(app, args, env) {
  const result = spawnSync(process.execPath, [path.join(distOf(app), 'cli.js'), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(`${app} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * The first group of `pattern` in a command's output; throws when the output lacks it.
 * @param {RegExp} pattern
 * @param {string} output
 */
export function matched(pattern, output) {
  const match = pattern.exec(output);
  if (!match) throw new Error(`${pattern} not found in:\n${output}`);
  return match[1];
}

/**
 * @param {string} url
 * @param {import('node:child_process').ChildProcess} child
 */
async function waitReady(url, child, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`${url} did not become ready (exit code ${child.exitCode})`);
}

/**
 * A global_admin API key issued through workspace-api's CLI, as the request body's credentials.
 * @param {NodeJS.ProcessEnv} env
 */
export function issueAdminKey(env) {
  const output = runCli(
    'workspace-api',
    ['api-key', 'create', '--name', 'bench', '--permission', 'global_admin'],
    env,
  );
  return {
    api_key: matched(/api_key:\s+(\S+)/, output),
    api_key_secret: matched(/api_key_secret:\s+(\S+)/, output),
  };
}

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);

/**
 * CPU time a process has used so far, user and system, in seconds, from /proc (Linux).
 * @param {number} pid
 */
export function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * Resident set size of a process in MiB, from /proc (Linux).
 * @param {number} pid
 */
export function rssMiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(matched(/VmRSS:\s+(\d+)\s+kB/, status)) / 1024;
}

/** @typedef {Awaited<ReturnType<typeof startServer>>} Server */

/**
 * Starts `node <script>` and waits until `readyPath` answers 2xx. Returns the process, how long
 * it took to be ready, and `stop()`, which sends SIGTERM and waits for the exit.
 * @param {object} options
 * @param {string} options.name names its log file (bench/results/logs/<name>.log)
 * @param {string} options.script
 * @param {string[]} [options.args]
 * @param {string[]} [options.nodeFlags] Node's own flags (a service's: tools/services.cjs)
 * @param {NodeJS.ProcessEnv} options.env
 * @param {number} options.port
 * @param {string} [options.readyPath]
 * @param {number} [options.readyTimeoutMs]
 */
export async function startServer({
  name,
  script,
  args = [],
  nodeFlags = [],
  env,
  port,
  readyPath = '/health/ready',
  readyTimeoutMs = 30_000,
}) {
  fs.mkdirSync(path.join(RESULTS_DIR, 'logs'), { recursive: true });
  const log = fs.openSync(path.join(RESULTS_DIR, 'logs', `${name}.log`), 'w');
  const started = performance.now();
  // BENCH_PROFILE=1: every server writes a CPU profile on exit (summarise with profile-summary.mjs).
  const profile = process.env.BENCH_PROFILE
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.join(RESULTS_DIR, 'profiles')}`,
        `--cpu-prof-name=${name}.cpuprofile`,
      ]
    : [];
  const child = spawn(process.execPath, [...nodeFlags, ...profile, script, ...args], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A server that never became ready is not left running behind the bench.
  await waitReady(`http://127.0.0.1:${port}${readyPath}`, child, readyTimeoutMs).catch((error) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    name,
    // Spawned: the server answered.
    pid: /** @type {number} */ (child.pid),
    url: `http://127.0.0.1:${port}`,
    readyMs: performance.now() - started,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
    },
  };
}

/**
 * Starts a service's built server as production runs it (its Node flags included).
 * @param {Omit<Parameters<typeof startServer>[0], 'script' | 'nodeFlags'> & { app: string }} options
 */
export function startService({ app, ...options }) {
  const service = SERVICES.find((s) => s.name === app);
  if (!service) throw new Error(`no service ${app} in tools/services.cjs`);
  return startServer({
    ...options,
    script: path.join(distOf(app), 'server.js'),
    nodeFlags: service.nodeFlags,
  });
}
