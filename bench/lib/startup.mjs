// `npm start` on an existing data folder, timed from the command to "Both services ready".
// It has its own embedded PostgreSQL data folder and ports, so a developer's stack is left alone;
// a first, untimed run creates the folder when it is missing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from './processes.mjs';
import { ROOT } from './paths.mjs';

const DATA_DIR = path.join(ROOT, '.data/postgres-bench-start');

/** @param {NodeJS.ProcessEnv} env */
async function startOnce(env) {
  const started = performance.now();
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 120_000;
  while (
    !output.includes('Both services ready') &&
    child.exitCode === null &&
    Date.now() < deadline
  ) {
    await sleep(20);
  }
  const seconds = (performance.now() - started) / 1000;
  const ready = output.includes('Both services ready');
  try {
    process.kill(-(/** @type {number} */ (child.pid)), 'SIGINT');
  } catch {
    // It stopped by itself (a failed start): its output below says why.
  }
  await Promise.race([exited, sleep(20_000)]);
  if (!ready) throw new Error(`npm start did not become ready:\n${output.slice(-3000)}`);
  return seconds;
}

export async function measureNpmStart() {
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    LOCAL_PG_DATA: DATA_DIR,
    LOCAL_PG_PORT: process.env.BENCH_START_PG_PORT ?? '54369',
    WORKSPACE_API_PORT: '3211',
    CALENDAR_API_PORT: '3212',
    WORKSPACE_SESSIONS_PORT: '3213',
  };
  delete env.DATABASE_URL;
  const fresh = !fs.existsSync(path.join(DATA_DIR, 'PG_VERSION'));
  if (fresh) await startOnce(env);
  return { seconds: await startOnce(env), createdDataFolder: fresh };
}
