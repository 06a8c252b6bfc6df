#!/usr/bin/env node
// `npm run bench:sessions`: the time from request_kasm to a running session against the engine's
// own create + start of the same container, and HTTP throughput through the session proxy against
// the container directly, both measured in this run on a real Docker engine (DOCKER_HOST, or a
// private dockerd as the engine tests use). See bench/README.md.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createBenchDatabase } from './lib/database.mjs';
import { measurePair } from './lib/load.mjs';
import { RESULTS_DIR } from './lib/paths.mjs';
import { issueAdminKey, runCli, sleep, startService } from './lib/processes.mjs';
import { formatTable } from './lib/report.mjs';
import {
  installTestWorkspace,
  serverAnswers,
  socketPolicy,
  startBareContainer,
} from './lib/test-workspace.mjs';

const require = createRequire(import.meta.url);
const { SERVICES, buildApps } = require('../tools/services.cjs');
const { startTestEngine, engineRequest } = require('../tools/docker-engine.cjs');
const { ensureTestImages, TEST_WEB_IMAGE } = require('../tools/docker-test-images.cjs');

const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 10);
const PORT = 3211;
const CORES = Number(process.env.BENCH_SESSION_CORES ?? 0.5);
const MEMORY = 256 * 1024 ** 2;
const WORKSPACE = { image: TEST_WEB_IMAGE, cores: CORES, memory: MEMORY };
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
const median = (/** @type {number[]} */ values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The engine's own create + start of the container a session gets, until its port answers.
 * @param {string} host
 */
async function engineLaunch(host) {
  const started = performance.now();
  const container = await startBareContainer(host, WORKSPACE);
  if ('failed' in container) throw new Error(`The baseline container did not ${container.failed}`);
  while (!(await serverAnswers(container.port))) await sleep(5);
  const ms = performance.now() - started;
  await engineRequest(host, 'DELETE', `/containers/${container.id}?force=true`);
  return ms;
}

/**
 * What the bench reads of the answers of the operations it calls.
 * @typedef {object} Answers
 * @property {{ zone: { zone_id: string } }} create_zone
 * @property {{ user: { user_id: string } }} create_user
 * @property {{ kasm_id: string, kasm_url: string }} request_kasm
 * @property {{ operational_status: string, operational_message?: string, kasm_url?: string }} get_kasm_status
 */

async function main() {
  const startedAt = new Date().toISOString();
  buildApps(SERVICES.map((s) => s.name));
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  const db = await createBenchDatabase();
  /** @type {import('./lib/processes.mjs').Server | undefined} */
  let server;
  try {
    await ensureTestImages(engine.host);
    const env = {
      DATABASE_URL: db.url,
      SESSION_URL_SCHEME: 'http',
      ...socketPolicy([engine.host]),
      ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
    };
    runCli('workspace-api', ['migrate'], env);
    const credentials = issueAdminKey(env);
    server = await startService({
      name: 'workspace-api-sessions',
      app: 'workspace-api',
      env,
      port: PORT,
    });
    /**
     * @template {string} O
     * @param {O} operation
     * @param {object} [body]
     * @returns {Promise<O extends keyof Answers ? Answers[O] : unknown>}
     */
    const call = async (operation, body = {}) => {
      const { url } = /** @type {import('./lib/processes.mjs').Server} */ (server); // started above
      const res = await fetch(`${url}/api/public/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...credentials, ...body }),
      });
      const json = await res.json();
      if (!res.ok) throw new Error(`${operation}: ${res.status} ${JSON.stringify(json)}`);
      return /** @type {O extends keyof Answers ? Answers[O] : unknown} */ (json);
    };

    const zone = (
      await call('create_zone', {
        // The host the bench reaches the server at: a grant is minted only on the session's host.
        target_zone: { name: 'bench', proxy_hostname: '127.0.0.1', proxy_port: PORT },
      })
    ).zone;
    await call('create_agent', {
      target_agent: {
        hostname: 'bench',
        zone_id: zone.zone_id,
        docker_url: engine.host,
        cores_override: 1000,
      },
    });
    const user = (
      await call('create_user', { target_user: { username: 'bench', password: 'Bench-pass1' } })
    ).user;
    await call('update_group', {
      target_group: { group_id: '68d557ac4cac42cca9f31c7c853de0f3', max_kasms_per_user: 1000 },
    });
    const imageId = await installTestWorkspace(db, WORKSPACE);
    await call('add_images_group', {
      target_group: { group_id: '68d557ac4cac42cca9f31c7c853de0f3' },
      target_image: { image_id: imageId },
    });

    const requestToRunning = async () => {
      const started = performance.now();
      const { kasm_id } = await call('request_kasm', { user_id: user.user_id, image_id: imageId });
      for (;;) {
        const status = await call('get_kasm_status', { kasm_id });
        if (status.operational_status === 'running') break;
        if (status.operational_status === 'error') throw new Error(status.operational_message);
        await sleep(5);
      }
      const ms = performance.now() - started;
      await call('destroy_kasm', { kasm_id });
      return ms;
    };

    log(`Launching ${LAUNCHES} sessions and as many bare containers, alternating`);
    await engineLaunch(engine.host);
    await requestToRunning();
    const bare = [];
    const sessions = [];
    for (let i = 0; i < LAUNCHES; i++) {
      bare.push(await engineLaunch(engine.host));
      sessions.push(await requestToRunning());
    }
    const launchRatio = median(sessions) / median(bare);

    log('Measuring HTTP through the session proxy and to the container directly');
    const { kasm_id, kasm_url } = await call('request_kasm', {
      user_id: user.user_id,
      image_id: imageId,
    });
    while ((await call('get_kasm_status', { kasm_id })).operational_status !== 'running')
      await sleep(20);
    const fresh = (await call('get_kasm_status', { kasm_id })).kasm_url ?? kasm_url;
    const visit = await fetch(`${server.url}${new URL(fresh).pathname}${new URL(fresh).search}`, {
      redirect: 'manual',
    });
    const setCookie = visit.headers.get('set-cookie');
    if (!setCookie) throw new Error(`the session's URL set no cookie (status ${visit.status})`);
    const cookie = setCookie.split(';')[0];
    const row = (
      await db.query(`SELECT host_port FROM workspace.kasm WHERE id = $1::uuid`, [kasm_id])
    )[0];
    const proxy = await measurePair(
      { url: server.url, path: `/kasm/${kasm_id}/`, headers: { cookie } },
      { url: `http://127.0.0.1:${row.host_port}`, path: '/' },
    );
    // Context: the service's cheapest route under the same load, the ceiling of any proxied request.
    const live = await measurePair(
      { url: server.url, path: '/health/live' },
      { url: `http://127.0.0.1:${row.host_port}`, path: '/' },
    );
    await call('destroy_kasm', { kasm_id });

    const ms = (/** @type {number} */ v) => `${v.toFixed(0)} ms`;
    /** @type {(import('./lib/report.mjs').Row & { runs?: unknown })[]} */
    const rows = [
      {
        scenario: `request_kasm → running vs engine create+start (median of ${LAUNCHES})`,
        result: `${ms(median(sessions))} vs ${ms(median(bare))}, ×${launchRatio.toFixed(2)}`,
        target: '≤ 1.5×',
        pass: launchRatio <= 1.5,
      },
      {
        scenario: 'GET / through the session proxy vs the container',
        ...proxy.service,
        baseline: proxy.baseline,
        result: `ratio ${proxy.ratio.toFixed(2)}`,
        target: 'ratio ≥ 0.6',
        pass: proxy.ratio >= 0.6 && proxy.service.failed === 0,
      },
      {
        scenario: 'context: GET /health/live of the service vs the container',
        ...live.service,
        baseline: live.baseline,
        result: `ratio ${live.ratio.toFixed(2)}`,
        target: '—',
        pass: null,
      },
    ];
    const table = formatTable(rows);
    log(table);
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(
      path.join(RESULTS_DIR, 'sessions-latest.json'),
      `${JSON.stringify({ startedAt, launches: { sessions, bare }, proxyRatios: proxy.ratios, rows: rows.map(({ runs, ...r }) => r) }, null, 2)}\n`,
    );
  } finally {
    await server?.stop();
    await db.drop();
    await engine.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
