#!/usr/bin/env node
// End-to-end check of the fresh-machine promise: `npm start` on an empty embedded database must
// bring both services up, print a working first API key, serve a request, and stop cleanly.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT } = require('./services.cjs');

const WORKSPACE_PORT = 3101;
const CALENDAR_PORT = 3102;
const SESSIONS_PORT = 3103;

/** @type {boolean[]} */
const results = [];
/**
 * @param {string} name
 * @param {boolean} ok
 */
const check = (name, ok, detail = '') => {
  results.push(ok);
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}\n`);
};

async function main() {
  // Its own empty data folder and ports, so a developer's running stack is left alone.
  /** @type {NodeJS.ProcessEnv & { LOCAL_PG_DATA: string }} */
  const env = {
    ...process.env,
    LOCAL_PG_DATA: fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-pg-')),
    LOCAL_PG_PORT: '54349',
    WORKSPACE_API_PORT: String(WORKSPACE_PORT),
    CALENDAR_API_PORT: String(CALENDAR_PORT),
    WORKSPACE_SESSIONS_PORT: String(SESSIONS_PORT),
  };
  delete env.DATABASE_URL;
  const child = spawn('npm', ['start'], { cwd: ROOT, env, detached: true });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 180_000;
  while (
    !output.includes('Both services ready') &&
    Date.now() < deadline &&
    child.exitCode === null
  ) {
    await new Promise((r) => setTimeout(r, 200));
  }
  check('npm start brings both services up', output.includes('Both services ready'));
  const key = /api_key:\s+(\S+)/.exec(output)?.[1];
  const secret = /api_key_secret:\s+(\S+)/.exec(output)?.[1];
  check('first start prints a global_admin key', Boolean(key && secret));

  const res = await fetch(`http://127.0.0.1:${WORKSPACE_PORT}/api/public/get_users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: key, api_key_secret: secret }),
  }).catch((e) => ({ status: String(e) }));
  check('the printed key lists users', res.status === 200, `status ${res.status}`);
  // The web page and its script come from the bundle's assets folder (tools/build-app.mjs).
  const page = await fetch(`http://127.0.0.1:${WORKSPACE_PORT}/`)
    .then(async (r) => ({ status: r.status, text: await r.text() }))
    .catch((e) => ({ status: String(e), text: '' }));
  const script = await fetch(`http://127.0.0.1:${WORKSPACE_PORT}/assets/page.js`).catch((e) => ({
    status: String(e),
  }));
  check(
    'the web page serves its sign-in form and script',
    page.status === 200 && page.text.includes('action="/sign-in"') && script.status === 200,
    `page ${page.status}, script ${script.status}`,
  );
  // Sessions have an origin of their own: the proxy answers there only, the page never.
  const status = (/** @type {string} */ url) =>
    fetch(url).then(
      (r) => r.status,
      (e) => String(e),
    );
  const kasm = `/kasm/${'0'.repeat(32)}/`;
  const [proxyThere, pageThere, proxyOnPage] = await Promise.all([
    status(`http://127.0.0.1:${SESSIONS_PORT}${kasm}`),
    status(`http://127.0.0.1:${SESSIONS_PORT}/`),
    status(`http://127.0.0.1:${WORKSPACE_PORT}${kasm}`),
  ]);
  check(
    'sessions are served on their own port, the page and its sign-in never there',
    proxyThere === 401 &&
      pageThere === 404 &&
      proxyOnPage === 404 &&
      output.includes(`sessions on http://localhost:${SESSIONS_PORT}`),
    `proxy ${proxyThere}, page ${pageThere}, proxy on the page's port ${proxyOnPage}`,
  );
  const calendar = await fetch(`http://127.0.0.1:${CALENDAR_PORT}/health/ready`).catch((e) => ({
    status: String(e),
  }));
  check('calendar-api is ready', calendar.status === 200, `status ${calendar.status}`);

  // Ctrl-C in a terminal signals the whole foreground process group, npm included.
  process.kill(-(/** @type {number} */ (child.pid)), 'SIGINT');
  const code = await Promise.race([
    exited,
    new Promise((r) => setTimeout(() => r('timeout'), 30_000)),
  ]);
  await new Promise((r) => setTimeout(r, 500));
  const stillUp = await fetch(`http://127.0.0.1:${WORKSPACE_PORT}/health/live`).then(
    () => true,
    () => false,
  );
  check(
    'Ctrl-C stops the services and the database cleanly',
    code !== 'timeout' && output.includes('Stopped.') && !stillUp,
  );
  if (results.includes(false)) process.stdout.write(output.slice(-4000));
  const failed = results.filter((r) => !r).length;
  fs.rmSync(env.LOCAL_PG_DATA, { recursive: true, force: true });
  fs.appendFileSync(
    process.env.TEST_SUMMARY_FILE ?? '/dev/null',
    `${results.length - failed} ${failed} 0\n`,
  );
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
