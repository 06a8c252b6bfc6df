#!/usr/bin/env node
// `npm run bench:launches`: 50 concurrent request_kasm (one per user) over 1 or 2 workspace-api
// replicas (processes on one database) and 1 or 2 agents (each its own private dockerd), beside
// the same number of plain `docker create` + `start` calls on the same engines in the same run.
// For each: how long until every launch answered / runs / serves, and the p95 of each launch.
// See bench/README.md.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createBenchDatabase } from './lib/database.mjs';
import { percentile } from './lib/load.mjs';
import { RESULTS_DIR } from './lib/paths.mjs';
import { freePort, issueAdminKey, runCli, sleep, startService } from './lib/processes.mjs';
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

const LAUNCHES = Number(process.env.BENCH_LAUNCHES ?? 50);
const CORES = 0.5;
const MEMORY = 256 * 1024 ** 2;
const WORKSPACE = { image: TEST_WEB_IMAGE, cores: CORES, memory: MEMORY };
const ALL_USERS = '68d557ac4cac42cca9f31c7c853de0f3';
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

/**
 * Times of a batch of launches, each from the batch's start, in ms.
 * @param {{ answered: number, running: number }[]} launches
 * @param {number} failed
 */
function summary(launches, failed) {
  const answered = launches.map((l) => l.answered).sort((a, b) => a - b);
  const running = launches.map((l) => l.running).sort((a, b) => a - b);
  const all = running[running.length - 1];
  return {
    launched: launches.length,
    failed,
    answerP50: percentile(answered, 50),
    answerP95: percentile(answered, 95),
    runningP50: percentile(running, 50),
    runningP95: percentile(running, 95),
    allRunningMs: all,
    perSecond: (launches.length / all) * 1000,
  };
}

/**
 * LAUNCHES plain create + start calls at once, spread over the engines, each until its server
 * answers: what the platform's launches do on the engine, without the platform.
 * @param {string[]} hosts
 */
async function bareBatch(hosts) {
  const started = performance.now();
  const launches = await Promise.all(
    Array.from({ length: LAUNCHES }, async (_, i) => {
      const host = hosts[i % hosts.length];
      const container = await startBareContainer(host, WORKSPACE);
      if ('failed' in container) return { host, Id: container.id, failed: container.failed };
      const { id: Id, port } = container;
      const answered = performance.now() - started;
      while (!(await serverAnswers(port))) await sleep(10);
      return { host, Id, answered, running: performance.now() - started };
    }),
  );
  const done = launches.flatMap((l) => ('failed' in l ? [] : [l]));
  const failures = launches.flatMap((l) => ('failed' in l ? [l.failed] : []));
  if (failures.length > 0) log(`  failed: ${[...new Set(failures)].join('; ')}`);
  const result = summary(done, failures.length);
  await Promise.all(
    launches.map((l) => engineRequest(l.host, 'DELETE', `/containers/${l.Id}?force=true`)),
  );
  return result;
}

async function main() {
  const startedAt = new Date().toISOString();
  buildApps(SERVICES.map((s) => s.name));
  /** @type {{ host: string, stop: () => Promise<void> }[]} */
  const engines = [];
  /** @type {import('./lib/processes.mjs').Server[]} */
  const servers = [];
  const db = await createBenchDatabase();
  try {
    for (let i = 0; i < 2; i++) {
      const engine = await startTestEngine({ privateOnly: true });
      if (!engine) throw new Error('Two private Docker engines need root and dockerd on PATH');
      engines.push(engine);
      await ensureTestImages(engine.host);
    }
    const hosts = engines.map((e) => e.host);
    const env = {
      DATABASE_URL: db.url,
      SESSION_URL_SCHEME: 'http',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...socketPolicy(hosts),
    };
    runCli('workspace-api', ['migrate'], env);
    const credentials = issueAdminKey(env);
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startService({
          name: `workspace-api-launches-${i + 1}`,
          app: 'workspace-api',
          // Each replica's sessions listener on a port of its own, as each has its own PORT.
          env: { ...env, SESSION_PORT: String(await freePort()) },
          port: await freePort(),
        }),
      );
    }
    /** @param {string} url @param {string} operation @param {object} body */
    const post = async (url, operation, body) => {
      const res = await fetch(`${url}/api/public/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...credentials, ...body }),
      });
      return { status: res.status, json: /** @type {any} */ (await res.json()) };
    };
    /** @param {string} operation @param {object} [body] */
    const call = async (operation, body = {}) => {
      const res = await post(servers[0].url, operation, body);
      if (res.status !== 200)
        throw new Error(`${operation}: ${res.status} ${JSON.stringify(res.json)}`);
      return res.json;
    };

    // One zone per agent: a request naming the first zone uses one agent, one naming none both.
    /** @type {string[]} */
    const zones = [];
    for (let i = 0; i < 2; i++) {
      const { zone } = await call('create_zone', {
        target_zone: { name: `bench-${i + 1}`, proxy_hostname: '127.0.0.1', proxy_port: 80 },
      });
      zones.push(zone.zone_id);
      await call('create_agent', {
        target_agent: {
          hostname: `engine-${i + 1}`,
          zone_id: zone.zone_id,
          docker_url: hosts[i],
          cores_override: 1000,
        },
      });
    }
    await call('update_group', { target_group: { group_id: ALL_USERS, max_kasms_per_user: 5 } });
    const imageId = await installTestWorkspace(db, WORKSPACE);
    await call('add_images_group', {
      target_group: { group_id: ALL_USERS },
      target_image: { image_id: imageId },
    });
    /** @type {string[]} */
    const users = [];
    for (let i = 0; i < LAUNCHES; i++) {
      const { user } = await call('create_user', {
        target_user: { username: `bench-${i}`, password: 'Bench-pass1' },
      });
      users.push(user.user_id);
    }

    /** LAUNCHES request_kasm at once, one per user, round-robin over the replicas. */
    const platformBatch = async (/** @type {number} */ agents, /** @type {number} */ replicas) => {
      const started = performance.now();
      const zone = agents === 1 ? { zone_id: zones[0] } : {};
      const answers = await Promise.all(
        users.map(async (userId, i) => {
          const url = servers[i % replicas].url;
          const res = await post(url, 'request_kasm', {
            user_id: userId,
            image_id: imageId,
            ...zone,
          });
          const answered = performance.now() - started;
          if (res.status !== 200) return { failed: `${res.status} ${res.json.code}` };
          return { kasmId: /** @type {string} */ (res.json.kasm_id), answered };
        }),
      );
      // When each session runs, read from the database by one poller: polling get_kasm_status
      // 50 times over would load the service under test.
      /** @type {Map<string, number>} */
      const runningAt = new Map();
      /** @type {Map<string, string>} */
      const ended = new Map();
      const pending = answers.flatMap((a) => ('kasmId' in a ? [a.kasmId] : []));
      while (runningAt.size + ended.size < pending.length) {
        const states = await db.query(
          `SELECT replace(id::text, '-', '') AS id, status, status_message FROM workspace.kasm WHERE id = ANY($1::uuid[])`,
          [pending],
        );
        const now = performance.now() - started;
        for (const s of states) {
          if (runningAt.has(s.id) || ended.has(s.id)) continue;
          if (s.status === 'running') runningAt.set(s.id, now);
          else if (!['requested', 'provisioning', 'starting'].includes(s.status))
            ended.set(s.id, `${s.status} ${s.status_message}`);
        }
        await sleep(20);
      }
      const outcomes = answers.map((a) => {
        if ('failed' in a) return { failed: a.failed };
        const running = runningAt.get(a.kasmId);
        return running === undefined
          ? { failed: ended.get(a.kasmId) ?? 'never ran' }
          : { ...a, running };
      });
      const launches = /** @type {{ kasmId: string, answered: number, running: number }[]} */ (
        outcomes.filter((o) => !('failed' in o))
      );
      const failures = outcomes.flatMap((o) => ('failed' in o ? [o.failed] : []));
      if (failures.length > 0) log(`  failed: ${[...new Set(failures)].join('; ')}`);
      const result = summary(launches, failures.length);
      // Every session is destroyed before the next batch, also those that failed to start.
      const rows = await db.query(
        `SELECT replace(id::text, '-', '') AS id FROM workspace.kasm WHERE status NOT IN ('destroyed')`,
      );
      await Promise.all(rows.map((r) => post(servers[0].url, 'destroy_kasm', { kasm_id: r.id })));
      const placed = await db.query(
        `SELECT a.hostname, count(*)::int AS n FROM workspace.kasm k JOIN workspace.agent a ON a.id = k.agent_id
          WHERE k.id = ANY($1::uuid[]) GROUP BY a.hostname ORDER BY a.hostname`,
        [launches.map((l) => l.kasmId)],
      );
      return { ...result, placed: placed.map((p) => `${p.hostname}: ${p.n}`).join(', ') };
    };

    // A first launch on each engine warms it (image layers, the bridge) for both sides.
    await bareBatch(hosts);
    /** @type {{ scenario: string, agents: number, replicas: number, [k: string]: unknown }[]} */
    const results = [];
    for (const agents of [1, 2]) {
      log(`${LAUNCHES} plain create + start on ${agents} engine(s)`);
      results.push({
        scenario: 'docker create + start',
        agents,
        replicas: 0,
        ...(await bareBatch(hosts.slice(0, agents))),
      });
      for (const replicas of [1, 2]) {
        log(`${LAUNCHES} request_kasm over ${replicas} replica(s) and ${agents} agent(s)`);
        results.push({
          scenario: 'request_kasm',
          agents,
          replicas,
          ...(await platformBatch(agents, replicas)),
        });
      }
    }

    const ms = (/** @type {unknown} */ v) => `${Number(v).toFixed(0)}`;
    /** @type {[string, (r: (typeof results)[number]) => string][]} */
    const columns = [
      ['scenario', (r) => r.scenario],
      ['engines', (r) => String(r.agents)],
      ['replicas', (r) => (r.replicas ? String(r.replicas) : '—')],
      ['answer p50 ms', (r) => ms(r.answerP50)],
      ['answer p95 ms', (r) => ms(r.answerP95)],
      ['running p50 ms', (r) => ms(r.runningP50)],
      ['running p95 ms', (r) => ms(r.runningP95)],
      ['all running ms', (r) => ms(r.allRunningMs)],
      ['launches/s', (r) => Number(r.perSecond).toFixed(1)],
      ['failed', (r) => String(r.failed)],
      ['placed', (r) => String(r.placed ?? '—')],
    ];
    const rows = results;
    log(formatTable(rows, columns));
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(
      path.join(RESULTS_DIR, 'launches-latest.json'),
      `${JSON.stringify({ startedAt, launches: LAUNCHES, results }, null, 2)}\n`,
    );
  } finally {
    for (const server of servers) await server.stop();
    await db.drop();
    for (const engine of engines) await engine.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
