#!/usr/bin/env node
// `npm run bench:sound`: the Desktop workspace's sound heard in Chromium through workspace-api
// (paplay in the desktop → PulseAudio → parec through the engine → the session's _audio WebSocket
// → the page's AudioWorklet), as the time from a tone's start to the page hearing it, p50 and p95
// over BENCH_TONES tones, beside a baseline in the same run and page: the same player fed by a
// local WebSocket that plays the same tone in real time (what the page's buffer costs by itself).
// Then the session's stream (full screens through the proxy, MB/s) with the sound playing against
// without. A real Docker engine (DOCKER_HOST, or a private dockerd). See README.md.
import http from 'node:http';
import { createRequire } from 'node:module';
import { WebSocketServer } from 'ws';
import { launchBrowser } from './lib/desktop-browser.mjs';
import { execOutput, sessionContainer } from './lib/desktop-engine.mjs';
import { startPlatform } from './lib/desktop-platform.mjs';
import { median, percentile } from './lib/load.mjs';
import { sleep } from './lib/processes.mjs';
import { connectRfb } from './lib/rfb.mjs';

const require = createRequire(import.meta.url);
const { buildApps } = require('../tools/services.cjs');
const { startTestEngine } = require('../tools/docker-engine.cjs');
const { ensureWorkspaceImages } = require('../tools/workspaces/workspace-images.cjs');
const {
  SOUND_ONSET,
  STOP_SOUND,
  playTone,
  startSound: pageStartSound,
  writeTone,
} = require('../tools/workspaces/desktop-sound.cjs');

const TONES = Number(process.env.BENCH_TONES ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_MS = Number(process.env.BENCH_STREAM_MS ?? 3000);
const TONE_HZ = 1000;
const TONE_S = 0.3;
const RATE = 48_000;
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

/**
 * The baseline's source: a WebSocket server that sends what the session's _audio sends (a text
 * message naming the format, then s16le stereo in 20 ms messages, in real time), silence until
 * `tone()` makes it send TONE_S of the tone; `tone()` answers the clock when the tone began.
 */
async function localSource() {
  const server = http.createServer();
  const sockets = new WebSocketServer({ server });
  let toneFrom = Infinity;
  let frame = 0;
  const began = performance.now();
  const chunk = RATE / 50;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - began) * RATE) / 1000);
    while (frame + chunk <= due) {
      const pcm = Buffer.alloc(chunk * 4);
      for (let i = 0; i < chunk; i++) {
        const t = frame + i - toneFrom;
        const v =
          t >= 0 && t < TONE_S * RATE ? 8192 * Math.sin((2 * Math.PI * TONE_HZ * t) / RATE) : 0;
        pcm.writeInt16LE(Math.round(v), i * 4);
        pcm.writeInt16LE(Math.round(v), i * 4 + 2);
      }
      frame += chunk;
      for (const ws of sockets.clients) ws.send(pcm);
    }
  }, 5);
  sockets.on('connection', (ws) =>
    ws.send(JSON.stringify({ format: 's16le', rate: RATE, channels: 2 })),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `ws://127.0.0.1:${port}/`,
    /** The tone begins with the next message; its start by the wall clock (ms since the epoch). */
    tone() {
      toneFrom = frame;
      return performance.timeOrigin + began + (frame * 1000) / RATE;
    },
    close() {
      clearInterval(timer);
      sockets.close();
      server.close();
    },
  };
}

/** @param {number[]} values */
const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), all: values };
};

/**
 * Times TONES tones from their start (`play` answers it, by the wall clock) to the page hearing
 * them (SOUND_ONSET), each after the last one's end.
 * @param {import('playwright-core').Page} page @param {() => Promise<number>} play
 */
async function timeTones(page, play) {
  const times = [];
  for (let i = 0; i < TONES; i++) {
    await page.evaluate(`void (window.__onset = ${SOUND_ONSET})`);
    const started = await play();
    const heard = /** @type {number} */ (await page.evaluate('window.__onset'));
    times.push(heard - started);
    await sleep(TONE_S * 1000 + 500);
  }
  return summary(times);
}

/** @param {import('playwright-core').Page} page @param {Record<string, unknown>} options */
const startSound = (page, options) => page.evaluate(pageStartSound(options));
const stopSound = (/** @type {import('playwright-core').Page} */ page) => page.evaluate(STOP_SOUND);

async function main() {
  buildApps(['workspace-api']);
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  /** @type {import('./lib/desktop-platform.mjs').Platform | undefined} */
  let platform;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  /** @type {Awaited<ReturnType<typeof localSource>> | undefined} */
  let source;
  try {
    log('Workspace image: Desktop');
    await ensureWorkspaceImages(engine.host, { only: ['desktop'], log: (l) => log(`  ${l}`) });
    platform = await startPlatform(engine, {
      name: 'workspace-api-sound',
      friendlyName: 'Desktop',
    });
    const { kasmId, cookie } = await platform.launch();
    const container = await sessionContainer(engine.host, kasmId);
    await execOutput(engine.host, container.Id, writeTone(TONE_HZ, TONE_S));

    browser = await launchBrowser(['--autoplay-policy=no-user-gesture-required']);
    const context = await browser.newContext();
    const [name, value] = cookie.split('=');
    await context.addCookies([
      { name, value, domain: '127.0.0.1', path: `/kasm/${kasmId}/`, httpOnly: true },
    ]);
    const page = await context.newPage();
    const session = `${platform.sessionsOrigin}/kasm/${kasmId}/`;
    // Chromium aborts loads while the engine adds a container's interface: once more then.
    await page.goto(session).catch(() => sleep(1000).then(() => page.goto(session)));
    await page.addScriptTag({ url: `${session}_audio/player.js` });

    log(`Service: ${TONES} tones played in the desktop (paplay), heard in the page`);
    await startSound(page, { kasmId });
    const service = await timeTones(page, async () => {
      const out = await execOutput(engine.host, container.Id, `${playTone(TONE_HZ)} >/dev/null`);
      const start = /(\d{13})/.exec(out);
      if (!start) throw new Error(`no start time from paplay: ${out}`);
      return Number(start[1]);
    });
    await stopSound(page);

    log(`Baseline: ${TONES} tones from a local WebSocket, heard in the same page`);
    source = await localSource();
    await startSound(page, { kasmId, socketUrl: source.url });
    const local = source;
    const baseline = await timeTones(page, async () => local.tone());
    await stopSound(page);

    log(`Stream: full screens through the proxy, ${ROUNDS} rounds each with the sound off and on`);
    const rfb = await connectRfb(
      `${platform.sessionsOrigin.replace(/^http/, 'ws')}/kasm/${kasmId}/websockify`,
      { cookie, origin: platform.sessionsOrigin },
    );
    await rfb.fullScreens(1000);
    /** @type {{ off: number[], on: number[] }} */
    const rates = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 ? ['on', 'off'] : ['off', 'on']) {
        if (side === 'on') await startSound(page, { kasmId });
        const { bytes, seconds } = await rfb.fullScreens(ROUND_MS);
        rates[/** @type {'on' | 'off'} */ (side)].push(bytes / 1e6 / seconds);
        if (side === 'on') await stopSound(page);
      }
    }
    rfb.close();
    const ratio = median(rates.on) / median(rates.off);

    const ms = (/** @type {number} */ v) => `${v.toFixed(0)} ms`;
    const lines = [
      `| measure (${TONES} tones, ${TONE_HZ} Hz, ${TONE_S * 1000} ms each) | service: desktop → page | baseline: local socket → page | target |`,
      '|---|---:|---:|---|',
      `| tone start → heard in the page, p50 | ${ms(service.p50)} | ${ms(baseline.p50)} | ≤ 250 ms |`,
      `| tone start → heard in the page, p95 | ${ms(service.p95)} | ${ms(baseline.p95)} | |`,
      `| stream with the sound on / off (full screens, median of ${ROUNDS}) | ${median(rates.on).toFixed(1)} / ${median(rates.off).toFixed(1)} MB/s = ${ratio.toFixed(2)} | | ≥ 0.9 |`,
    ];
    log(`\nEach tone (ms), service: ${service.all.map((v) => v.toFixed(0)).join(' ')}`);
    log(`Each tone (ms), baseline: ${baseline.all.map((v) => v.toFixed(0)).join(' ')}`);
    log(`\n${lines.join('\n')}`);
    process.exitCode = service.p50 <= 250 && ratio >= 0.9 ? 0 : 1;
    await platform.destroy(kasmId);
  } finally {
    source?.close();
    await browser?.close();
    await platform?.stop();
    await engine.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
