// @ts-check
// The desktops bench's table: each figure beside its baseline from the same run, the target and
// whether it was met.
import { median } from './load.mjs';

/**
 * `aa`: the same comparison between two identical direct clients (an A/A run), where it applies:
 * how much of a result the machine's noise could make.
 * @typedef {{ scenario: string, platform: string, baseline: string, result: string,
 *   aa?: string, target: string, pass: boolean | null }} Row
 */

/** @type {[string, (r: Row) => string][]} */
export const COLUMNS = [
  ['scenario', (r) => r.scenario],
  ['platform', (r) => r.platform],
  ['baseline', (r) => r.baseline],
  ['result', (r) => r.result],
  ['A/A', (r) => r.aa ?? '—'],
  ['target', (r) => r.target],
  ['pass', (r) => (r.pass === null ? '—' : r.pass ? 'PASS' : 'FAIL')],
];

const MiB = 1024 ** 2;

/** The median and, in brackets, the lowest and highest. @param {number[]} values */
const spread = (values, digits = 0, unit = '') => {
  const f = (/** @type {number} */ v) => v.toFixed(digits);
  return `${f(median(values))}${unit} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
};

/** @param {Awaited<ReturnType<typeof import('./desktop-launches.mjs').measureLaunches>>} l */
export function launchRows(l) {
  const s = (/** @type {number[]} */ ms) =>
    spread(
      ms.map((v) => v / 1000),
      2,
      ' s',
    );
  return [
    {
      scenario: `Launch click → first frame, median of ${l.platformMs.length}`,
      platform: s(l.platformMs),
      baseline: s(l.engineMs),
      result:
        `×${l.ratio.toFixed(2)}` +
        (l.cleanRatio === null ? '' : `; ×${l.cleanRatio.toFixed(2)} without the reloads`),
      target: '≤ 1.3×',
      pass: l.ratio <= 1.3,
    },
  ];
}

/** @param {Awaited<ReturnType<typeof import('./desktop-stream.mjs').measureStream>>} st */
export function streamRows(st) {
  const { throughput: t, rtt, fps } = st;
  const added = rtt.proxy.p50 - rtt.direct.p50;
  const aaAdded = rtt.again.p50 - rtt.direct.p50;
  const plus = (/** @type {number} */ ms) => `${ms >= 0 ? '+' : ''}${ms.toFixed(3)} ms`;
  const ping = (/** @type {{ p50: number, p99: number }} */ r) =>
    `${r.p50.toFixed(3)} ms (p99 ${r.p99.toFixed(2)})`;
  return [
    {
      scenario: 'Stream throughput, full raw screens, MB/s',
      platform: spread(t.proxy.values),
      baseline: spread(t.direct.values),
      result: `×${t.proxy.ratio.toFixed(2)}`,
      aa: `×${t.again.ratio.toFixed(2)}`,
      target: '≥ 0.9×',
      pass: t.proxy.ratio >= 0.9,
    },
    ...(t.nginx
      ? [
          {
            scenario: 'Stream throughput, the same through nginx (reference), MB/s',
            platform: spread(t.nginx.values),
            baseline: spread(t.direct.values),
            result: `×${t.nginx.ratio.toFixed(2)}`,
            aa: `×${t.again.ratio.toFixed(2)}`,
            target: '— (what a proxy in C reaches here)',
            pass: null,
          },
        ]
      : []),
    {
      scenario: 'Stream round trip, WebSocket ping p50',
      platform: ping(rtt.proxy),
      baseline: ping(rtt.direct),
      result: plus(added),
      aa: plus(aaAdded),
      target: '≤ +1 ms',
      pass: added <= 1,
    },
    {
      scenario: 'Moving desktop, incremental updates/s',
      platform: spread(fps.proxy.values, 1),
      baseline: spread(fps.direct.values, 1),
      result: `×${fps.proxy.ratio.toFixed(2)}`,
      aa: `×${fps.again.ratio.toFixed(2)}`,
      target: '0.9–1.1× (equal within noise)',
      pass: fps.proxy.ratio >= 0.9 && fps.proxy.ratio <= 1.1,
    },
  ];
}

/**
 * @param {Awaited<ReturnType<typeof import('./desktop-capacity.mjs').measureCapacity>>} c
 * @param {{ cores: number, memory: number }} agent the agent as it detected its engine
 * @param {number} limit the bench's own guard
 */
export function capacityRows(c, agent, limit) {
  const used = c.memories.map((r) => r.used / MiB);
  const bare = c.bareMemory.used / MiB;
  const expected = Math.min(
    Math.floor(agent.cores / c.reserved.cores),
    Math.floor(agent.memory / c.reserved.memory),
  );
  return [
    {
      scenario: `Idle desktop memory, MiB, session (${used.length}) vs bare container`,
      platform: spread(used),
      baseline: bare.toFixed(0),
      result: `×${(median(used) / bare).toFixed(2)}`,
      target: `— (reserves ${(c.reserved.memory / 1e6).toFixed(0)} MB)`,
      pass: null,
    },
    {
      scenario: `Desktops one agent holds (${agent.cores} cores, ${(agent.memory / 1024 ** 3).toFixed(1)} GiB)`,
      platform: String(c.sessions),
      baseline: `${expected} by reservation`,
      result: c.refusal
        ? `then ${c.refusal.status} ${c.refusal.code}: ${c.refusal.detail}`
        : `no refusal before ${limit}`,
      target: '= reservation',
      pass: c.sessions === expected && c.refusal !== null,
    },
  ];
}
