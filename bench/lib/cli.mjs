// How long a read-only CLI command takes, as a user types it, next to what any Node process
// costs on this machine in the same run: `node -e 0`, and a process that runs one plain pg query.
import { spawnSync } from 'node:child_process';
import { ROOT } from './paths.mjs';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 5);

const PG_QUERY = `const { Client } = require('pg');
const c = new Client({ connectionString: process.env.DATABASE_URL });
c.connect().then(() => c.query('SELECT 1')).then(() => c.end());`;

export const CLI_COMMANDS = [
  {
    title: 'npm run workspace -- api-key list',
    cmd: 'npm',
    args: ['run', '-s', 'workspace', '--', 'api-key', 'list'],
  },
  {
    title: 'npm run workspace -- settings export',
    cmd: 'npm',
    args: ['run', '-s', 'workspace', '--', 'settings', 'export'],
  },
  {
    title: 'npm run calendar -- token list',
    cmd: 'npm',
    args: ['run', '-s', 'calendar', '--', 'token', 'list'],
  },
  {
    title: 'node tools/cli.cjs workspace-api api-key list',
    cmd: process.execPath,
    args: ['tools/cli.cjs', 'workspace-api', 'api-key', 'list'],
  },
];

/**
 * Median wall time in seconds of `runs` runs (after one untimed run that warms the caches).
 * @param {string} cmd
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
function medianSeconds(cmd, args, env) {
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i <= RUNS; i++) {
    const started = performance.now();
    const result = spawnSync(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${result.stderr}`);
    if (i > 0) times.push((performance.now() - started) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * The baselines and each command: `{ title, seconds }`, measured back to back.
 * @param {NodeJS.ProcessEnv} env
 */
export function measureCli(env) {
  const node = medianSeconds(process.execPath, ['-e', '0'], env);
  const pg = medianSeconds(process.execPath, ['-e', PG_QUERY], env);
  const commands = CLI_COMMANDS.map(({ title, cmd, args }) => ({
    title,
    seconds: medianSeconds(cmd, args, env),
  }));
  return { node, pg, commands };
}
