// Drives one endpoint with autocannon over loopback. autocannon's own histogram keeps whole
// milliseconds, too coarse for sub-millisecond routes, so every response time is recorded here
// and the percentiles are computed from the raw values.
import autocannon from 'autocannon';
import { cpuSeconds } from './processes.mjs';

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
// A smaller data size (BENCH_SCALE < 1) is a quick check: shorter measurements too.
const QUICK = Number(process.env.BENCH_SCALE ?? 1) < 1;
export const DURATION_S = Number(process.env.BENCH_DURATION ?? (QUICK ? 3 : 12));
export const WARMUP_S = Number(process.env.BENCH_WARMUP ?? (QUICK ? 1 : 3));
// Six rounds of two seconds a side: the median of six pairs is less at the mercy of one bad pair
// than that of three (bench/README.md has A/A measurements of the spread).
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 3 : 6));

/**
 * What a measurement drives: `body()` makes each request's JSON body, `makePath()` its path.
 * @typedef {object} Target
 * @property {string} url
 * @property {string} path
 * @property {number} [pid] the server's process, whose CPU time is counted
 * @property {import('autocannon').Request['method']} [method]
 * @property {Record<string, string>} [headers]
 * @property {() => unknown} [body]
 * @property {() => string} [makePath]
 */

/**
 * @typedef {object} LoadOptions
 * @property {number} [connections]
 * @property {number} [duration] seconds
 * @property {number} [warmup] seconds
 * @property {number} [rate] requests per second of all connections together; none: flat out
 */

/**
 * One measured run.
 * @typedef {object} Run
 * @property {Float64Array} times every response time in ms, sorted
 * @property {number} ok 2xx responses
 * @property {number} seconds
 * @property {Record<string, number>} statusCodes responses by status code
 * @property {number} errors
 * @property {number | null} cpu the server's CPU seconds, when its pid was given
 */

/** @typedef {ReturnType<typeof summarize>} Measurement */

/**
 * @param {ArrayLike<number>} sorted
 * @param {number} p
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * @param {autocannon.Options} options
 * @param {(client: autocannon.Client, statusCode: number, resBytes: number, responseTime: number) => void} [onResponse]
 * @returns {Promise<autocannon.Result>}
 */
function run(options, onResponse) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    if (onResponse) instance.on('response', onResponse);
  });
}

/**
 * Returns requests/s, latency percentiles in ms, and every status code seen.
 * @param {Target} target
 * @param {LoadOptions} [options]
 */
export async function measure(
  target,
  { connections = CONNECTIONS, duration = DURATION_S, warmup = WARMUP_S, rate } = {},
) {
  /** @type {autocannon.Request[]} */
  const requests = [
    {
      method: target.method ?? 'GET',
      path: target.path,
      headers: { 'content-type': 'application/json', ...target.headers },
      setupRequest: (request) => {
        const next = { ...request };
        if (target.body) next.body = JSON.stringify(target.body());
        if (target.makePath) next.path = target.makePath();
        return next;
      },
    },
  ];
  const base = { url: target.url, connections, requests, overallRate: rate };
  if (warmup > 0) await run({ ...base, duration: warmup });

  /** @type {number[]} */
  const times = [];
  /** @type {Record<string, number>} */
  const statusCodes = {};
  const cpuBefore = target.pid ? cpuSeconds(target.pid) : null;
  const result = await run({ ...base, duration }, (_client, statusCode, _bytes, responseTime) => {
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    times.push(responseTime);
  });
  const cpu =
    cpuBefore === null ? null : cpuSeconds(/** @type {number} */ (target.pid)) - cpuBefore;
  const sorted = Float64Array.from(times).sort();
  const ok = Object.entries(statusCodes)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, n]) => sum + n, 0);
  return summarize([
    {
      times: sorted,
      ok,
      seconds: result.duration || duration,
      statusCodes,
      errors: result.errors + result.timeouts,
      cpu,
    },
  ]);
}

/**
 * One figure from one or more runs: median requests/s of the runs, percentiles of all responses.
 * @param {Run[]} runs
 */
function summarize(runs) {
  const times = Float64Array.from(runs.flatMap((r) => [...r.times])).sort();
  const rates = runs.map((r) => r.ok / r.seconds);
  /** @type {Record<string, number>} */
  const statusCodes = {};
  for (const r of runs)
    for (const [code, n] of Object.entries(r.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const ok = runs.reduce((sum, r) => sum + r.ok, 0);
  const errors = runs.reduce((sum, r) => sum + r.errors, 0);
  const cpu = runs.every((r) => r.cpu !== null && r.cpu !== undefined)
    ? runs.reduce((sum, r) => sum + (r.cpu ?? 0), 0)
    : null;
  return {
    // The server process's own CPU time (all its threads) per answered request, in µs: far
    // steadier than the rate on a shared machine.
    cpuUs: cpu === null || ok === 0 ? null : (cpu / ok) * 1e6,
    rps: median(rates),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / (times.length || 1),
    count: times.length,
    statusCodes,
    errors,
    failed: times.length - ok + errors,
    runs,
  };
}

/**
 * The median; of an even count, the mean of the middle two.
 * @param {number[]} values
 */
export function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A service and its baseline, alternately, ROUNDS times (after a warm-up of each), so that the
 * drift of a shared machine hits both alike: each round is a pair, and the pairs take turns at
 * going first (baseline then service, service then baseline, ...), so that a machine slowing down
 * or speeding up over a run favours neither. Each side gets the median of its rounds' rates and
 * the percentiles of all its responses; `ratios` holds service/baseline per round, `ratio` their
 * median.
 * @param {Target} service
 * @param {Target} base
 * @param {LoadOptions} [options]
 */
export async function measurePair(service, base, options = {}) {
  const duration = Math.max(2, (options.duration ?? DURATION_S) / ROUNDS);
  await measure(base, { ...options, duration: WARMUP_S, warmup: 0 });
  await measure(service, { ...options, duration: WARMUP_S, warmup: 0 });
  /** @type {Run[]} */
  const b = [];
  /** @type {Run[]} */
  const s = [];
  const once = async (/** @type {Target} */ target, /** @type {Run[]} */ runs) =>
    runs.push((await measure(target, { ...options, duration, warmup: 0 })).runs[0]);
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      await once(base, b);
      await once(service, s);
    } else {
      await once(service, s);
      await once(base, b);
    }
  }
  const ratios = s
    .map((run, i) => run.ok / run.seconds / (b[i].ok / b[i].seconds))
    .sort((x, y) => x - y);
  return {
    service: summarize(s),
    baseline: summarize(b),
    ratio: median(ratios),
    ratios,
  };
}
