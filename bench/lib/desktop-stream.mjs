// @ts-check
// A session's VNC stream through the session proxy (ws://<service>/kasm/<id>/websockify, the
// grant cookie) against the same container's stream straight from its published port (wss://,
// Basic credentials), with one RFB client of each connected at once. Rounds alternate between
// the two, taking turns at going first (as measurePair does), and each round reads the CPU time
// of every process on the path, so that a ratio comes with where the time went.
import fs from 'node:fs';
import { median, percentile } from './load.mjs';
import { cpuSeconds, sleep } from './processes.mjs';
import { connectRfb } from './rfb.mjs';
import { desktopPassword, execDetached, processesOf, publishedPort } from './desktop-engine.mjs';

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

/**
 * Runs `measure` on each side ROUNDS times, taking turns at going first; each side's results,
 * and the CPU seconds of each process group over its rounds.
 * @template T
 * @param {Record<'proxy' | 'direct', import('./rfb.mjs').RfbClient>} clients
 * @param {Record<string, number[]>} groups
 * @param {(client: import('./rfb.mjs').RfbClient) => Promise<T>} measure
 */
async function alternate(clients, groups, measure) {
  /** @type {Record<'proxy' | 'direct', { runs: T[], cpu: Record<string, number> }>} */
  const sides = {
    proxy: { runs: [], cpu: {} },
    direct: { runs: [], cpu: {} },
  };
  for (let round = 0; round < ROUNDS; round++) {
    /** @type {('proxy' | 'direct')[]} */
    const order = round % 2 === 0 ? ['direct', 'proxy'] : ['proxy', 'direct'];
    for (const side of order) {
      const before = cpuOf(groups);
      sides[side].runs.push(await measure(clients[side]));
      for (const [name, seconds] of Object.entries(cpuOf(groups)))
        sides[side].cpu[name] = (sides[side].cpu[name] ?? 0) + seconds - before[name];
    }
  }
  return sides;
}

/**
 * @param {{ origin: string, pid: number }} platform
 * @param {string} engineHost
 * @param {{ kasmId: string, cookie: string, container: any }} session
 */
export async function measureStream(platform, engineHost, { kasmId, cookie, container }) {
  const port = publishedPort(container);
  const basic = Buffer.from(`kasm_user:${desktopPassword(container.Config.Env)}`).toString(
    'base64',
  );
  const clients = {
    proxy: await connectRfb(
      `ws://127.0.0.1:${new URL(platform.origin).port}/kasm/${kasmId}/websockify`,
      {
        cookie,
        origin: platform.origin,
      },
    ),
    direct: await connectRfb(`wss://127.0.0.1:${port}/websockify`, {
      authorization: `Basic ${basic}`,
    }),
  };
  try {
    // websockify forks a process per connection: the container's processes are read now.
    const groups = {
      client: [process.pid],
      'workspace-api': [platform.pid],
      'docker-proxy': portProxyPids(port),
      ...(await processesOf(engineHost, container.Id)),
    };
    for (const client of Object.values(clients)) await client.fullScreens(1000);
    const screens = await alternate(clients, groups, (c) => c.fullScreens(ROUND_MS));
    const rate = (/** @type {{ bytes: number, seconds: number }} */ r) => r.bytes / 1e6 / r.seconds;
    const bytes = (/** @type {'proxy' | 'direct'} */ side) =>
      screens[side].runs.reduce((sum, r) => sum + r.bytes, 0);
    const cpuPerMb = (/** @type {'proxy' | 'direct'} */ side) =>
      Object.fromEntries(
        Object.entries(screens[side].cpu).map(([n, s]) => [n, (s * 1e6) / (bytes(side) / 1e6)]),
      );

    for (const client of Object.values(clients)) for (let i = 0; i < 20; i++) await client.ping();
    const pings = await alternate(clients, groups, async (c) => {
      const times = [];
      for (let i = 0; i < PINGS; i++) times.push(await c.ping());
      return times;
    });
    const rtt = (/** @type {'proxy' | 'direct'} */ side) => {
      const all = pings[side].runs.flat().sort((a, b) => a - b);
      return { p50: percentile(all, 50), p99: percentile(all, 99), count: all.length };
    };

    await execDetached(engineHost, container.Id, MOVER);
    await sleep(2000);
    const frames = await alternate(clients, groups, (c) => c.incrementalUpdates(ROUND_MS));
    const fps = (/** @type {{ updates: number, seconds: number }} */ r) => r.updates / r.seconds;

    const summary = {
      throughput: {
        proxy: screens.proxy.runs.map(rate),
        direct: screens.direct.runs.map(rate),
        ratios: screens.proxy.runs.map((r, i) => rate(r) / rate(screens.direct.runs[i])),
        cpuUsPerMb: { proxy: cpuPerMb('proxy'), direct: cpuPerMb('direct') },
        screenBytes:
          clients.proxy.init.width * clients.proxy.init.height * clients.proxy.init.bytesPerPixel,
      },
      rtt: { proxy: rtt('proxy'), direct: rtt('direct') },
      fps: {
        proxy: frames.proxy.runs.map(fps),
        direct: frames.direct.runs.map(fps),
        ratios: frames.proxy.runs.map((r, i) => fps(r) / fps(frames.direct.runs[i])),
      },
    };
    return {
      ...summary,
      medians: {
        proxyMbps: median(summary.throughput.proxy),
        directMbps: median(summary.throughput.direct),
        throughputRatio: median(summary.throughput.ratios),
        proxyFps: median(summary.fps.proxy),
        directFps: median(summary.fps.direct),
        fpsRatio: median(summary.fps.ratios),
      },
    };
  } finally {
    for (const client of Object.values(clients)) client.close();
  }
}
