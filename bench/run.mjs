#!/usr/bin/env node
// `npm run bench`: seeds a throwaway database, starts both services from their built output as in
// production, drives them over loopback with autocannon next to the same-run baselines, and
// prints one table (also written to bench/results/). See bench/README.md.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createBenchDatabase } from './lib/database.mjs';
import { measureExtraction } from './lib/extraction.mjs';
import { CONNECTIONS, DURATION_S, ROUNDS, measure, measurePair } from './lib/load.mjs';
import { weeklyMessage } from './lib/messages.mjs';
import { APPS_ROOT, BENCH_DIR, ROOT } from './lib/paths.mjs';
import {
  freePort,
  issueAdminKey,
  matched,
  rssMiB,
  runCli,
  sleep,
  startServer,
  startService,
} from './lib/processes.mjs';
import { formatTable, writeResults } from './lib/report.mjs';
import {
  CALENDAR_DAYS,
  CALENDAR_FIRST_DAY,
  RECURRING_FIRST_DAY,
  sampleUserIds,
  seedCalendar,
  seedRecurring,
  seedWorkspace,
} from './lib/seed.mjs';
import { checkPlans } from './lib/plans.mjs';
import { measureNpmStart } from './lib/startup.mjs';
import { measureCli } from './lib/cli.mjs';

/** @type {typeof import('../tools/services.cjs')} */
const { SERVICES, buildApps } = createRequire(import.meta.url)('../tools/services.cjs');

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const USERS = Math.round(100_000 * SCALE);
const EVENTS = Math.round(1_000_000 * SCALE);
// Weekly series through one year, beside the million single events.
const SERIES = Math.max(10, Math.round(200 * SCALE));
const LAST_PAGE = Math.ceil(USERS / 100) - 1;
const ONLY = process.env.BENCH_ONLY?.split(',');
/** Seconds each server serves its hot requests after starting, before the first measurement. */
const SERVER_WARMUP_S = Number(process.env.BENCH_SERVER_WARMUP ?? (SCALE < 1 ? 2 : 20));
const wanted = (/** @type {string} */ id) => !ONLY || ONLY.includes(id);

const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
const DAY_MS = 86_400_000;
/** Days from CALENDAR_FIRST_DAY to the `week`th week of the recurring series' year. */
const recurringDay = (/** @type {number} */ week) =>
  (Date.parse(RECURRING_FIRST_DAY) - Date.parse(CALENDAR_FIRST_DAY)) / DAY_MS + week * 7;
/**
 * @template T
 * @param {T[]} list
 */
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const dayString = (/** @type {number} */ offset) => {
  const day = new Date(`${CALENDAR_FIRST_DAY}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + offset);
  return day.toISOString().slice(0, 10);
};

/**
 * @typedef {import('./lib/load.mjs').Measurement} Measurement
 * @typedef {import('./lib/load.mjs').Target} Target
 */

/**
 * A measurement without its raw response times, and with the rate of each round.
 * @param {Measurement | null | undefined} measured
 */
function figures(measured) {
  if (!measured) return measured;
  const { runs, ...rest } = measured;
  return { ...rest, rounds: runs?.map((r) => r.ok / r.seconds) };
}

/**
 * What a row says besides its measurement.
 * @typedef {object} RowExtra
 * @property {string} result
 * @property {string} target
 * @property {boolean | null} pass
 * @property {Measurement} [baseline]
 * @property {number} [ratio] service/baseline
 * @property {number[]} [ratios] of each round
 * @property {number} [value] the figure judged
 * @property {number} [p50]
 * @property {number} [p99]
 */

/**
 * @param {string} scenario
 * @param {Measurement | null} measured
 * @param {RowExtra} extra
 */
function row(scenario, measured, extra) {
  const failures = measured?.failed ?? 0;
  if (failures > 0)
    log(`  ${scenario}: ${failures} failed responses ${JSON.stringify(measured?.statusCodes)}`);
  const pass =
    extra.pass === null
      ? null
      : extra.pass && failures === 0 && (extra.baseline?.failed ?? 0) === 0;
  return { scenario, ...figures(measured), ...extra, baseline: figures(extra.baseline), pass };
}

async function main() {
  const PORTS = {
    workspace: await freePort(),
    calendar: await freePort(),
    baseline: await freePort(),
  };
  const started = performance.now();
  const startedAt = new Date().toISOString();
  log(
    `Bench at scale ${SCALE}: ${USERS} users, ${EVENTS} events; ${CONNECTIONS} connections, ${DURATION_S} s per measurement in ${ROUNDS} rounds`,
  );
  if (APPS_ROOT === ROOT) buildApps(SERVICES.map((s) => s.name));
  else log(`Measuring the builds in ${APPS_ROOT} (built there beforehand)`);
  const db = await createBenchDatabase();
  log(`Database ${db.name} on ${db.server}`);
  // BENCH_LOG_LEVEL: the services' LOG_LEVEL, for experiments; production's default (info) otherwise.
  const env = {
    DATABASE_URL: db.url,
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
  };
  /** @type {import('./lib/processes.mjs').Server[]} */
  const servers = [];
  /** @type {ReturnType<typeof row>[]} */
  const rows = [];
  /** @type {Awaited<ReturnType<typeof checkPlans>>['plans']} */
  let plans = [];
  // Ctrl-C: stop the servers and drop the database before leaving.
  process.once('SIGINT', async () => {
    log('Interrupted; cleaning up');
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
    process.exit(130);
  });
  try {
    runCli('workspace-api', ['migrate'], env);
    runCli('calendar-api', ['migrate'], env);
    const credentials = issueAdminKey(env);
    const tokenOutput = runCli('calendar-api', ['token', 'create', '--name', 'bench'], env);
    const token = matched(/(cal_\S+)/, tokenOutput);

    let seeded = performance.now();
    await seedWorkspace(db.url, USERS);
    await seedCalendar(db.url, EVENTS);
    await seedRecurring(db.url, SERIES);
    const userIds = await sampleUserIds(db.url, 5000);
    log(`Seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    // The seed's WAL starts a checkpoint that PostgreSQL spreads over minutes, writing the seeded
    // pages out while the scenarios run; one now leaves nothing of the seed to write meanwhile.
    await db.query('CHECKPOINT').catch((error) => log(`  no CHECKPOINT (${error.message})`));

    if (wanted('plans')) {
      log('Checking query plans of the statements the services send');
      const [user] = await db.query(
        `SELECT id::text AS id, username FROM workspace."user" ORDER BY random() LIMIT 1`,
      );
      const checked = await checkPlans({
        url: db.url,
        env,
        credentials,
        ports: { workspace: PORTS.workspace, calendar: PORTS.calendar },
        sample: {
          user,
          lastPage: LAST_PAGE,
          day: dayString(1000),
          weekEnd: dayString(1006),
          seriesDay: dayString(recurringDay(20)),
          seriesWeekEnd: dayString(recurringDay(20) + 6),
        },
      });
      for (const problem of checked.problems) log(`  ${problem}`);
      plans = checked.plans;
      rows.push(
        row(
          `query plans use their indexes (${checked.count} requests, ${checked.statementCount} statements)`,
          null,
          {
            result: checked.problems.length === 0 ? 'all' : `${checked.problems.length} problems`,
            target: 'index on each',
            pass: checked.problems.length === 0,
          },
        ),
      );
    }

    const start = (
      /** @type {string} */ name,
      /** @type {string} */ app,
      /** @type {number} */ port,
    ) => startService({ name, app, env, port }).then((s) => (servers.push(s), s));
    const workspace = await start('workspace-api', 'workspace-api', PORTS.workspace);
    const calendar = await start('calendar-api', 'calendar-api', PORTS.calendar);
    const baseline = await startServer({
      name: 'baseline',
      script: path.join(BENCH_DIR, 'baseline/server.mjs'),
      env,
      port: PORTS.baseline,
    });
    servers.push(baseline);
    await sleep(3000);
    for (const s of [workspace, calendar]) {
      const rss = rssMiB(s.pid);
      rows.push(
        row(`idle RSS, ${s.name}`, null, {
          result: `${rss.toFixed(0)} MiB`,
          value: rss,
          target: '≤ 150 MiB',
          pass: rss <= 150,
        }),
      );
    }

    /** @returns {Target} */
    const operation = (/** @type {string} */ name, /** @type {() => object} */ body) => ({
      url: workspace.url,
      pid: workspace.pid,
      method: 'POST',
      path: `/api/public/${name}`,
      body: () => ({ ...credentials, ...body() }),
    });
    /** @returns {Target} */
    const baselineCall = (/** @type {string} */ name, /** @type {() => object} */ body) => ({
      url: baseline.url,
      pid: baseline.pid,
      method: 'POST',
      path: `/${name}`,
      body,
    });
    let counter = 0;

    // A random week's first day outside the year of the recurring series (the recurring scenario
    // reads that year), where the single events alone answer, as they do in the baseline.
    const weekStart = () => {
      const d = Math.floor(Math.random() * (CALENDAR_DAYS - 7));
      return Math.abs(d - recurringDay(26)) < 200 ? d + 400 : d;
    };
    const getUserTargets = {
      service: operation('get_user', () => ({ target_user: { user_id: pick(userIds) } })),
      baseline: baselineCall('get_user', () => ({ user_id: pick(userIds) })),
    };
    const namesChange = () => ({
      user_id: pick(userIds),
      first_name: `First ${++counter}`,
      last_name: `Last ${counter}`,
    });
    const updateUserTargets = {
      service: operation('update_user', () => ({ target_user: namesChange() })),
      baseline: baselineCall('update_user', namesChange),
    };
    const dateTargets = {
      service: {
        url: calendar.url,
        pid: calendar.pid,
        path: '/',
        makePath: () => `/api/calendar/events/${dayString(weekStart())}`,
      },
      baseline: {
        url: baseline.url,
        pid: baseline.pid,
        path: '/',
        makePath: () => `/events/${dayString(weekStart())}`,
      },
    };
    // Every server serves its hot requests for a while before anything is measured: a freshly
    // started service takes tens of seconds to reach its steady speed, the baseline a few
    // (bench/README.md at 5a21cd5), and a long-running server is what the ratios are about.
    const warmUps = [
      ...(['get_user', 'get_users', 'update_user'].some(wanted)
        ? [getUserTargets.service, getUserTargets.baseline]
        : []),
      ...(wanted('update_user') ? [updateUserTargets.service, updateUserTargets.baseline] : []),
      ...(['range', 'recurring', 'date'].some(wanted)
        ? [dateTargets.service, dateTargets.baseline]
        : []),
    ];
    if (warmUps.length > 0) log(`Warming the servers up (${SERVER_WARMUP_S} s each)`);
    for (const target of warmUps) await measure(target, { duration: SERVER_WARMUP_S, warmup: 0 });

    const hello = await measure({ url: baseline.url, pid: baseline.pid, path: '/hello' });
    rows.push(
      row('baseline: Fastify, no database', hello, { result: '—', target: '—', pass: null }),
    );

    /**
     * @typedef {(s: Measurement, b: Measurement, ratio: number) => { target: string, pass: boolean }} Judge
     */
    /**
     * @param {string} id
     * @param {string} title
     * @param {Target} service
     * @param {Target} base
     * @param {Judge} judge
     */
    const compare = async (id, title, service, base, judge) => {
      if (!wanted(id)) return;
      log(`Measuring ${title}`);
      const { service: s, baseline: b, ratio, ratios } = await measurePair(service, base);
      const { target, pass } = judge(s, b, ratio);
      rows.push(
        row(title, s, {
          baseline: b,
          ratio,
          ratios,
          result: `ratio ${ratio.toFixed(2)}`,
          target,
          pass,
        }),
      );
      return s;
    };
    /** @returns {Judge} */
    const atLeast = (/** @type {number} */ min) => (_s, _b, ratio) => ({
      target: `ratio ≥ ${min}`,
      pass: ratio >= min,
    });

    const getUser = await compare(
      'get_user',
      'get_user by id',
      getUserTargets.service,
      getUserTargets.baseline,
      atLeast(0.75),
    );

    if (wanted('get_users')) {
      log('Measuring get_users first and last page');
      const lastPage = LAST_PAGE;
      const pair = await measurePair(
        operation('get_users', () => ({ page: lastPage, page_size: 100 })),
        operation('get_users', () => ({ page: 0, page_size: 100 })),
      );
      const { service: last, baseline: first } = pair;
      // Time per request, last page over first: the inverse of the rates' ratio.
      const ratio = 1 / pair.ratio;
      rows.push(
        row(`get_users page ${lastPage} vs page 0 (size 100)`, last, {
          baseline: first,
          ratio,
          ratios: pair.ratios.map((r) => 1 / r).reverse(),
          result: `time ×${ratio.toFixed(2)}`,
          target: 'last/first ≤ 1.5',
          pass: ratio <= 1.5,
        }),
      );
    }

    await compare(
      'range',
      'GET /events/range, one week',
      {
        url: calendar.url,
        pid: calendar.pid,
        path: '/',
        makePath: () => {
          const d = weekStart();
          return `/api/calendar/events/range?start=${dayString(d)}&end=${dayString(d + 6)}`;
        },
      },
      {
        url: baseline.url,
        pid: baseline.pid,
        path: '/',
        makePath: () => {
          const d = weekStart();
          return `/events/range?start=${dayString(d)}&end=${dayString(d + 6)}`;
        },
      },
      atLeast(0.85),
    );
    if (wanted('recurring')) {
      // The same read of a week, inside the recurring series' year and outside it.
      const rangeOf = (/** @type {number} */ d) =>
        `/api/calendar/events/range?start=${dayString(d)}&end=${dayString(d + 6)}`;
      const heavyWeek = () => recurringDay(Math.floor(Math.random() * 50));
      await compare(
        'recurring',
        `GET /events/range, one week with ${SERIES} weekly series vs without`,
        { url: calendar.url, pid: calendar.pid, path: '/', makePath: () => rangeOf(heavyWeek()) },
        { url: calendar.url, pid: calendar.pid, path: '/', makePath: () => rangeOf(weekStart()) },
        atLeast(0.7),
      );
    }
    await compare(
      'date',
      'GET /events/{date}',
      dateTargets.service,
      dateTargets.baseline,
      atLeast(0.85),
    );

    await compare(
      'update_user',
      'update_user, names only',
      updateUserTargets.service,
      updateUserTargets.baseline,
      (s, b, ratio) => ({
        target: 'ratio ≥ 0.75, p99 ≤ 1.5× base',
        pass: ratio >= 0.75 && s.p99 <= 1.5 * b.p99,
      }),
    );

    if (wanted('add')) {
      log('Measuring POST /add');
      const add = await measure({
        url: calendar.url,
        pid: calendar.pid,
        method: 'POST',
        path: '/api/calendar/add',
        headers: { authorization: `Bearer ${token}` },
        body: () => {
          const n = ++counter;
          return { text: weeklyMessage(n), channel: 'C0LOAD', message_id: `m-${n}` };
        },
      });
      rows.push(
        row('POST /add, 20-line message', add, {
          result: `${add.rps.toFixed(0)} msg/s`,
          target: '≥ 500 msg/s',
          pass: add.rps >= 500,
        }),
      );
    }

    if (wanted('extraction')) {
      log('Measuring extraction');
      const x = await measureExtraction();
      rows.push(
        row('extraction alone, 500 lines', null, {
          p50: x.p50Ms,
          p99: x.p99Ms,
          value: x.meanMs,
          result: `${x.meanMs.toFixed(2)} ms/msg`,
          target: '≤ 5 ms',
          pass: x.meanMs <= 5,
        }),
      );
    }

    if (wanted('password') && getUser) {
      log('Measuring get_user alongside password changes');
      // A steady get_user load at half of what the service sustains, so that p99 shows the
      // interference of the hashing, not the queue of a saturated closed loop.
      const rate = Math.max(100, Math.round(getUser.rps / 2));
      const steady = operation('get_user', () => ({ target_user: { user_id: pick(userIds) } }));
      const alone = await measure(steady, { rate });
      const passwords = measure(
        operation('update_user', () => ({
          target_user: { user_id: pick(userIds), password: `Bench-Pa55-${++counter}` },
        })),
        { connections: 2, warmup: 0, duration: DURATION_S + 2 },
      );
      await sleep(1000);
      const loaded = await measure(steady, { rate, warmup: 0 });
      const hashes = await passwords;
      const ratio = loaded.p99 / alone.p99;
      rows.push(
        row(`get_user at ${rate}/s + password changes (${hashes.rps.toFixed(1)}/s)`, loaded, {
          baseline: alone,
          ratio,
          result: `p99 ×${ratio.toFixed(2)}`,
          target: 'p99 ≤ 2× alone',
          pass: ratio <= 2 && hashes.failed === 0,
        }),
      );
    }

    if (wanted('cli')) {
      log('Measuring CLI commands');
      const cli = measureCli(env);
      const base = `node -e 0 ${cli.node.toFixed(2)} s, pg query ${cli.pg.toFixed(2)} s`;
      rows.push(
        row('baseline: node -e 0 / one pg query', null, { result: base, target: '—', pass: null }),
      );
      for (const { title, seconds } of cli.commands) {
        rows.push(
          row(title, null, {
            value: seconds,
            result: `${seconds.toFixed(2)} s (×${(seconds / cli.pg).toFixed(1)} pg query)`,
            target: '≤ 1.5 s',
            pass: seconds <= 1.5,
          }),
        );
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
  }

  if (wanted('start')) {
    log('Measuring npm start');
    // A start that fails is a failed row with its reason; the rest of the run is still written.
    const measured = await measureNpmStart().catch((/** @type {Error} */ error) => error);
    const failed = measured instanceof Error;
    if (failed) log(`npm start failed: ${measured.message}`);
    rows.push(
      row('npm start, existing data folder', null, {
        value: failed ? undefined : measured.seconds,
        result: failed ? 'failed (see the log above)' : `${measured.seconds.toFixed(1)} s`,
        target: '≤ 10 s',
        pass: !failed && measured.seconds <= 10,
      }),
    );
  }

  const runtimeS = (performance.now() - started) / 1000;
  const report = {
    startedAt,
    scale: SCALE,
    users: USERS,
    events: EVENTS,
    connections: CONNECTIONS,
    durationS: DURATION_S,
    database: db.server,
    runtimeS,
    rows,
    plans,
  };
  log('');
  log(formatTable(rows));
  log('');
  log(`Runtime ${runtimeS.toFixed(0)} s. Results in ${writeResults(report)}`);
  process.exitCode = rows.some((r) => r.pass === false) ? 1 : 0;
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
