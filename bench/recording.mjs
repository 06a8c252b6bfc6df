#!/usr/bin/env node
// @ts-check
// `npm run bench:recording`: what recording a session costs (docs/recording.md). The Desktop
// workspace through workspace-api, a viewer through the proxy asking for every update (as a
// watching browser does), first idle for BENCH_IDLE_SECONDS, then typing `date +%T` and Return
// into the terminal every second for BENCH_BUSY_SECONDS; once with the workspace unrecorded and
// once recorded, in one run. Printed: the service's CPU (user + system, % of one core) in each
// phase both ways side by side, and the recording's bytes per hour idle and busy.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { startPlatform } from './lib/desktop-platform.mjs';
import { cpuSeconds, sleep } from './lib/processes.mjs';
import { connectRfb } from './lib/rfb.mjs';

const require = createRequire(import.meta.url);
const { buildApps } = require('../tools/services.cjs');
const { startTestEngine } = require('../tools/docker-engine.cjs');
const { ensureWorkspaceImages } = require('../tools/workspaces/workspace-images.cjs');

const IDLE_S = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const BUSY_S = Number(process.env.BENCH_BUSY_SECONDS ?? 60);
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
/** The terminal the desktop opens (workspace-apps at +48+40). */
const TERMINAL = { x: 200, y: 150 };

/** @param {number} keysym @param {boolean} down */
const keyEvent = (keysym, down) => {
  const message = Buffer.alloc(8);
  message.writeUInt8(4, 0);
  message.writeUInt8(down ? 1 : 0, 1);
  message.writeUInt32BE(keysym, 4);
  return message;
};
/** @param {string} text */
const typed = (text) =>
  Buffer.concat(
    [...text]
      .map((c) => c.charCodeAt(0))
      .concat(0xff0d)
      .flatMap((k) => [keyEvent(k, true), keyEvent(k, false)]),
  );
/** @param {number} buttons */
const click = (buttons) => {
  const message = Buffer.alloc(6);
  message.writeUInt8(5, 0);
  message.writeUInt8(buttons, 1);
  message.writeUInt16BE(TERMINAL.x, 2);
  message.writeUInt16BE(TERMINAL.y, 4);
  return message;
};

/** Bytes of the recordings of `kasmId` under `dir` (its files are named after the session). */
function recordedBytes(/** @type {string} */ dir, /** @type {string} */ kasmId) {
  const uuid = kasmId.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
  let total = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile() && entry.name.startsWith(uuid))
      total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

/**
 * One session: idle, then busy; the service's CPU seconds and the recording's bytes in each.
 * @param {Awaited<ReturnType<typeof startPlatform>>} p @param {string} dir @param {boolean} recorded
 */
async function session(p, dir, recorded) {
  await p.call('update_image', {
    target_image: { image_id: p.imageId, record_sessions: recorded },
  });
  const { kasmId, cookie } = await p.launch();
  const url = `${p.sessionsOrigin.replace('http', 'ws')}/kasm/${kasmId}/websockify`;
  const viewer = await connectRfb(url, { cookie, origin: p.sessionsOrigin });
  let watching = true;
  const watched = (async () => {
    viewer.request(false);
    while (watching) {
      await viewer.nextUpdate();
      viewer.request(true);
    }
  })().catch(() => undefined);
  await sleep(8000); // the desktop draws its windows
  const phase = async (/** @type {number} */ seconds, /** @type {boolean} */ busy) => {
    const cpu = cpuSeconds(p.pid);
    const bytes = recorded ? recordedBytes(dir, kasmId) : 0;
    const began = performance.now();
    if (busy) viewer.send(Buffer.concat([click(1), click(0)]));
    for (let s = 0; s < seconds; s++) {
      if (busy) viewer.send(typed('date +%T'));
      await sleep(1000);
    }
    await sleep(1500); // the recording's last second reaches the disk
    const elapsed = (performance.now() - began) / 1000;
    return {
      cpuPercent: ((cpuSeconds(p.pid) - cpu) / elapsed) * 100,
      bytesPerHour: recorded ? ((recordedBytes(dir, kasmId) - bytes) / elapsed) * 3600 : 0,
    };
  };
  const idle = await phase(IDLE_S, false);
  const busy = await phase(BUSY_S, true);
  watching = false;
  viewer.close();
  await watched;
  await p.destroy(kasmId);
  return { idle, busy };
}

async function main() {
  buildApps(['workspace-api']);
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-recordings-'));
  /** @type {Awaited<ReturnType<typeof startPlatform>> | undefined} */
  let platform;
  try {
    await ensureWorkspaceImages(engine.host, { only: ['desktop'], log });
    platform = await startPlatform(engine, {
      name: 'workspace-api-recording',
      friendlyName: 'Desktop',
      env: { RECORDINGS_DIR: dir, RECORDING_SCAN_MS: '250' },
    });
    log(`Idle ${IDLE_S} s, then typing every second for ${BUSY_S} s, watched through the proxy`);
    const off = await session(platform, dir, false);
    const on = await session(platform, dir, true);
    const pct = (/** @type {number} */ n) => `${n.toFixed(1)} %`;
    const mb = (/** @type {number} */ n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    log('');
    log('| phase | service CPU unrecorded | recorded | difference | recording per hour |');
    log('|---|---|---|---|---|');
    for (const name of /** @type {const} */ (['idle', 'busy']))
      log(
        `| ${name} | ${pct(off[name].cpuPercent)} | ${pct(on[name].cpuPercent)} | ` +
          `${pct(on[name].cpuPercent - off[name].cpuPercent)} | ${mb(on[name].bytesPerHour)} |`,
      );
    log(`(CPU in % of one core of ${os.cpus().length}; ${os.cpus()[0]?.model ?? ''})`);
  } finally {
    await platform?.stop();
    await engine.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
