// @ts-check
// A session's VNC stream through the session proxy (ws://<service>/kasm/<id>/websockify, the
// grant cookie) against the same container's stream straight from its published port (wss://,
// Basic credentials), and a second direct client against the first (an A/A run: the noise),
// all three RFB clients connected at once. Rounds alternate between them, taking turns at going
// first (as measurePair does), and each round reads the CPU time of every process on the path,
// so that a ratio comes with where the time went.
import fs from 'node:fs';
import { median, percentile } from './load.mjs';
import { cpuSeconds, sleep } from './processes.mjs';
import { connectRfb } from './rfb.mjs';
import { desktopPassword, execDetached, processesOf, publishedPort } from './desktop-engine.mjs';
import { startReferenceProxy } from './reference-proxy.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_MS = Number(process.env.BENCH_STREAM_MS ?? 3000);
const PINGS = Number(process.env.BENCH_PINGS ?? 100);
// A terminal printing as fast as it can: a desktop that keeps moving, a few hundred pixels square.
const MOVER =
  "setsid xterm -geometry 60x12+640+420 -e sh -c 'while :; do date +%T.%N; done' >/dev/null 2>&1 &";

/** The engine's userland port proxy (docker-proxy) of a published port. @param {number} port */
function portProxyPids(port) {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return (
          args[0].endsWith('docker-proxy') && args[args.indexOf('-host-port') + 1] === String(port)
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** @param {Record<string, number[]>} groups @returns {Record<string, number>} */
function cpuOf(groups) {
  const safe = (/** @type {number} */ pid) => {
    try {
      return cpuSeconds(pid);
    } catch {
      return 0;
    }
  };
  return Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [name, pids.reduce((s, p) => s + safe(p), 0)]),
  );
}

/** @typedef {'direct' | 'proxy' | 'again' | 'nginx'} Side */

/**
 * Runs `measure` on each side ROUNDS times, the sides taking turns at going first; each side's
 * results, and the CPU seconds of each process group over its rounds.
 * @template T
 * @param {Partial<Record<Side, import('./rfb.mjs').RfbClient>>} clients
 * @param {Record<string, number[]>} groups
 * @param {(client: import('./rfb.mjs').RfbClient) => Promise<T>} measure
 */
async function alternate(clients, groups, measure) {
  const order = /** @type {Side[]} */ (Object.keys(clients));
  /** @type {Partial<Record<Side, { runs: T[], cpu: Record<string, number> }>>} */
  const sides = Object.fromEntries(order.map((side) => [side, { runs: [], cpu: {} }]));
  for (let round = 0; round < ROUNDS; round++) {
    const turn = round % order.length;
    for (const side of [...order.slice(turn), ...order.slice(0, turn)]) {
      const client = /** @type {import('./rfb.mjs').RfbClient} */ (clients[side]);
      const of = /** @type {{ runs: T[], cpu: Record<string, number> }} */ (sides[side]);
      const before = cpuOf(groups);
      of.runs.push(await measure(client));
      for (const [name, seconds] of Object.entries(cpuOf(groups)))
        of.cpu[name] = (of.cpu[name] ?? 0) + seconds - before[name];
    }
  }
  return sides;
}

/**
 * Per side: the figure of each round, the median, and the median of the per-round ratios to the
 * direct side (the `again` side's is the A/A ratio: how far two identical clients differ; the
 * `nginx` side's, present when nginx is installed, what a proxy written in C reaches here).
 * @template T
 * @param {Partial<Record<Side, { runs: T[] }>>} sides @param {(run: T) => number} figure
 */
function compare(sides, figure) {
  /** @param {Side} side */
  const values = (side) => (sides[side]?.runs ?? []).map(figure);
  const direct = values('direct');
  /** @param {Side} side */
  const of = (side) => {
    const ratios = values(side).map((v, i) => v / direct[i]);
    return { values: values(side), median: median(values(side)), ratio: median(ratios), ratios };
  };
  return {
    direct: of('direct'),
    proxy: of('proxy'),
    again: of('again'),
    nginx: sides.nginx ? of('nginx') : null,
  };
}

/**
 * @param {{ sessionsOrigin: string, pid: number }} platform
 * @param {string} engineHost
 * @param {{ kasmId: string, cookie: string, container: any }} session
 */
export async function measureStream(platform, engineHost, { kasmId, cookie, container }) {
  const port = publishedPort(container);
  const password = desktopPassword(container.Config.Env);
  const basic = `Basic ${Buffer.from(`kasm_user:${password}`).toString('base64')}`;
  const direct = () => connectRfb(`wss://127.0.0.1:${port}/websockify`, { authorization: basic });
  const reference = await startReferenceProxy(port, basic);
  const first = await direct();
  /** @type {Partial<Record<Side, import('./rfb.mjs').RfbClient>>} */
  const clients = {
    direct: first,
    proxy: await connectRfb(
      `${platform.sessionsOrigin.replace(/^http/, 'ws')}/kasm/${kasmId}/websockify`,
      { cookie, origin: platform.sessionsOrigin },
    ),
    again: await direct(),
    ...(reference ? { nginx: await connectRfb(reference.url, {}) } : {}),
  };
  try {
    // websockify forks a process per connection: the container's processes are read now.
    const groups = {
      client: [process.pid],
      'workspace-api': [platform.pid],
      ...(reference ? { nginx: reference.pids() } : {}),
      'docker-proxy': portProxyPids(port),
      ...(await processesOf(engineHost, container.Id)),
    };
    for (const client of Object.values(clients)) await client.fullScreens(1000);
    const screens = await alternate(clients, groups, (c) => c.fullScreens(ROUND_MS));
    /** CPU µs of each process per MB streamed, over all rounds of a side. @param {Side} side */
    const cpuPerMb = (side) => {
      const of = screens[side];
      if (!of) return null;
      const mb = of.runs.reduce((sum, r) => sum + r.bytes, 0) / 1e6;
      return Object.fromEntries(Object.entries(of.cpu).map(([name, s]) => [name, (s * 1e6) / mb]));
    };

    for (const client of Object.values(clients)) for (let i = 0; i < 20; i++) await client.ping();
    const pings = await alternate(clients, groups, async (c) => {
      const times = [];
      for (let i = 0; i < PINGS; i++) times.push(await c.ping());
      return times;
    });
    /** @param {Side} side */
    const rtt = (side) => {
      const all = (pings[side]?.runs ?? []).flat().sort((a, b) => a - b);
      return { p50: percentile(all, 50), p99: percentile(all, 99), count: all.length };
    };

    await execDetached(engineHost, container.Id, MOVER);
    await sleep(2000);
    const frames = await alternate(clients, groups, (c) => c.incrementalUpdates(ROUND_MS));

    const { init } = first;
    return {
      screen: { ...init, bytes: init.width * init.height * init.bytesPerPixel },
      roundMs: ROUND_MS,
      // MB/s of full raw screens
      throughput: {
        ...compare(screens, (r) => r.bytes / 1e6 / r.seconds),
        cpuUsPerMb: {
          direct: cpuPerMb('direct'),
          proxy: cpuPerMb('proxy'),
          nginx: cpuPerMb('nginx'),
        },
      },
      rtt: {
        direct: rtt('direct'),
        proxy: rtt('proxy'),
        again: rtt('again'),
        nginx: reference ? rtt('nginx') : null,
      },
      // incremental updates per second of the moving desktop
      fps: compare(frames, (r) => r.updates / r.seconds),
    };
  } finally {
    for (const client of Object.values(clients)) client.close();
    await reference?.stop();
  }
}
