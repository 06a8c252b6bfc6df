#!/usr/bin/env node
// @ts-check
// `npm run bench:recording-seek`: issue 42's measure of the console's player. A recorded Desktop
// session of BENCH_SESSION_SECONDS (120) in which a script writes the time into a terminal every
// second (tools/workspaces/desktop-clock.cjs: as text, and as a bar of coloured blocks a program
// reads back from pixels); then, in Chromium, the console's player opens the recording and seeks
// BENCH_SEEKS times (5) to each target: the keyframe at or before t = 90 s (the baseline: one
// whole screen drawn, nothing replayed), t = 90 s, and 100 ms before the next keyframe (the
// worst case: the most updates replayed). Printed: for each, the updates replayed, the time from
// the seek to the first frame showing the clock (min, median, max) and the second it shows
// against the one the service's clock said at that point of the recording.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, signIn } from './lib/desktop-browser.mjs';
import { startPlatform, USER } from './lib/desktop-platform.mjs';
import { percentile } from './lib/load.mjs';
import { sleep } from './lib/processes.mjs';

const require = createRequire(import.meta.url);
const { buildApps } = require('../tools/services.cjs');
const { startTestEngine } = require('../tools/docker-engine.cjs');
const { ensureWorkspaceImages } = require('../tools/workspaces/workspace-images.cjs');
const { START_CLOCK, SEEK_AND_READ_CLOCK } = require('../tools/workspaces/desktop-clock.cjs');

const SESSION_S = Number(process.env.BENCH_SESSION_SECONDS ?? 120);
const SEEKS = Number(process.env.BENCH_SEEKS ?? 5);
const TARGET_MS = 90_000;
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
// The Administrators group (a fixed id in the first migration): recordings.view.
const ADMINISTRATORS = 'b578d8e34b3f4a4b8a4f2d2a4c6bb1a1';

/**
 * The recording file's start (its header's meta) and its chunks' types and times, read as the
 * player reads them (docs/recording.md, "The file").
 * @param {Buffer} file
 */
function chunkTimes(file) {
  const metaEnd = 12 + file.readUInt32BE(8);
  const meta = JSON.parse(file.subarray(12, metaEnd).toString('utf8'));
  const chunks = [];
  for (let at = metaEnd; at + 12 <= file.length; at += 12 + file.readUInt32BE(at) + 32)
    chunks.push({ type: file[at + 4], at: file.readUInt32BE(at + 8) });
  return { startedAt: Date.parse(meta.startedAt), chunks };
}

/** @param {Awaited<ReturnType<typeof startPlatform>>} p @param {string} recordingId */
async function download(p, recordingId) {
  const res = await fetch(`${p.origin}/api/public/get_recording`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...p.credentials, recording_id: recordingId }),
  });
  if (!res.ok) throw new Error(`get_recording: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** A recorded session with the clock running, SESSION_S long: its recording's id. @param {Awaited<ReturnType<typeof startPlatform>>} p */
async function recordClock(p) {
  const { kasmId } = await p.launch();
  /** @type {any} */
  let recording;
  while (!recording) {
    ({
      recordings: [recording],
    } = await p.call('get_recordings', { kasm_id: kasmId }));
    await sleep(250);
  }
  await sleep(5000); // the desktop's X server starts
  await p.call('exec_command_kasm', {
    kasm_id: kasmId,
    exec_config: { cmd: `export DISPLAY=:1\n${START_CLOCK}` },
  });
  const left = Date.parse(recording.started) + SESSION_S * 1000 + 1000 - Date.now();
  log(`Recording ${SESSION_S} s of the clock (${Math.round(left / 1000)} s left)`);
  await sleep(left);
  await p.destroy(kasmId);
  for (;;) {
    const { recordings } = await p.call('get_recordings', { kasm_id: kasmId });
    if (recordings[0].status !== 'recording') return String(recordings[0].recording_id);
    await sleep(250);
  }
}

async function main() {
  buildApps(['workspace-api']);
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-recording-seek-'));
  /** @type {Awaited<ReturnType<typeof startPlatform>> | undefined} */
  let platform;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  try {
    await ensureWorkspaceImages(engine.host, { only: ['desktop'], log });
    platform = await startPlatform(engine, {
      name: 'workspace-api-recording-seek',
      friendlyName: 'Desktop',
      env: { RECORDINGS_DIR: dir, RECORDING_SCAN_MS: '250' },
    });
    const p = platform;
    await p.call('update_image', { target_image: { image_id: p.imageId, record_sessions: true } });
    await p.call('add_user_group', {
      target_user: { user_id: p.userId },
      target_group: { group_id: ADMINISTRATORS },
    });
    const recordingId = await recordClock(p);
    const file = await download(p, recordingId);
    const { startedAt, chunks } = chunkTimes(file);
    const keyframes = chunks.filter((c) => c.type === 2).map((c) => c.at);
    const before = Math.max(...keyframes.filter((at) => at <= TARGET_MS));
    const next = Math.min(...keyframes.filter((at) => at > TARGET_MS));
    /** Server updates the player feeds after the keyframe it starts from. @param {number} target */
    const replayed = (target) =>
      chunks.filter((c) => c.type === 1 && c.at > before && c.at <= target).length;

    browser = await launchBrowser();
    const { page } = await signIn(browser, p.origin, USER.username, USER.password);
    const opened = performance.now();
    await page.goto(`${p.origin}/admin/recordings/${recordingId}`);
    await page.locator('#recording-player[data-ready="true"]').waitFor({ timeout: 120_000 });
    const readyMs = performance.now() - opened;

    log('');
    log(
      `${(file.length / 1024 / 1024).toFixed(1)} MiB, ${chunks.length} chunks, keyframes every ` +
        `${((keyframes[keyframes.length - 1] - keyframes[0]) / (keyframes.length - 1) / 1000).toFixed(1)} s; ` +
        `the player's page ready (file fetched and parsed) in ${Math.round(readyMs)} ms`,
    );
    log('');
    log('| seek to | updates replayed | drawn in: min | median | max | second shown − expected |');
    log('|---|---|---|---|---|---|');
    const targets = [
      ['the keyframe before 90 s (baseline)', before],
      ['t = 90 s', TARGET_MS],
      ['100 ms before the next keyframe', next - 100],
    ];
    for (const [name, target] of /** @type {[string, number][]} */ (targets)) {
      /** @type {number[]} */
      const times = [];
      const offsets = new Set();
      for (let i = 0; i < SEEKS; i++) {
        await page.evaluate(SEEK_AND_READ_CLOCK(0, 0)); // away first: every seek starts afresh
        const seek = /** @type {{ ms: number, second: number | null }} */ (
          await page.evaluate(SEEK_AND_READ_CLOCK(target, 30_000))
        );
        times.push(seek.ms);
        const expected = Math.floor((startedAt + target) / 1000) % 256;
        offsets.add(seek.second === null ? 'none' : ((seek.second - expected + 384) % 256) - 128);
      }
      times.sort((a, b) => a - b);
      log(
        `| ${name} (${(target / 1000).toFixed(1)} s) | ${replayed(target)} | ${Math.round(times[0])} ms | ` +
          `${Math.round(percentile(times, 50))} ms | ${Math.round(times[times.length - 1])} ms | ${[...offsets].join(', ')} |`,
      );
    }
    log(`(${SEEKS} seeks each; ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''})`);
  } finally {
    await browser?.close();
    await platform?.stop();
    await engine.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
