#!/usr/bin/env node
// @ts-check
// `npm run bench:sharing`: the owner's frame rate on a busy Desktop session through the proxy,
// alone and with two `view` joiners attached by share links (issue 40: ≥ 0.9× of alone). A
// terminal in the desktop keeps printing; the owner asks for incremental updates as a client
// does, the next as soon as one arrives, and counts them for BENCH_STREAM_MS. Rounds alternate
// between alone and with viewers, taking turns at going first; in a round with viewers both
// joiners open the stream through their own share link's grant and draw the same desktop the
// same way for the whole round. Once with the terminal paced (a line every BENCH_MOVER_SLEEP s),
// once printing as fast as it can. A real Docker engine (DOCKER_HOST, or a private dockerd).
import { createRequire } from 'node:module';
import os from 'node:os';
import { execDetached, execOutput, sessionContainer } from './lib/desktop-engine.mjs';
import { startPlatform } from './lib/desktop-platform.mjs';
import { median } from './lib/load.mjs';
import { cpuSeconds, sleep } from './lib/processes.mjs';
import { connectRfb } from './lib/rfb.mjs';

const require = createRequire(import.meta.url);
const { buildApps } = require('../tools/services.cjs');
const { startTestEngine } = require('../tools/docker-engine.cjs');
const { ensureWorkspaceImages } = require('../tools/workspaces/workspace-images.cjs');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_MS = Number(process.env.BENCH_STREAM_MS ?? 3000);
const PACE_S = Number(process.env.BENCH_MOVER_SLEEP ?? 0.02);
const VIEWERS = 2;
const TARGET = 0.9;
/** Viewers draw from before the owner's window opens until after it closes. */
const VIEWER_LEAD_MS = 1000;
const MOVER_PID = '/tmp/sharing-bench-mover.pid';
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

/** A terminal printing the time, paced (`pause` seconds a line) or as fast as it can (0). */
const mover = (/** @type {number} */ pause) =>
  `setsid xterm -geometry 60x12+640+420 -e sh -c 'while :; do date +%T.%N; ${
    pause > 0 ? `sleep ${pause}; ` : ''
  }done' >/dev/null 2>&1 & echo $! > ${MOVER_PID}`;

/** @typedef {import('./lib/rfb.mjs').RfbClient} RfbClient */

/**
 * @param {import('./lib/desktop-platform.mjs').Platform} platform
 * @param {string} kasmId
 */
function streams(platform, kasmId) {
  const url = `${platform.sessionsOrigin.replace(/^http/, 'ws')}/kasm/${kasmId}/websockify`;
  const open = (/** @type {string} */ cookie) =>
    connectRfb(url, { cookie, origin: platform.sessionsOrigin });
  return {
    open,
    /** A joiner's stream: its share link spent for a grant cookie, as a browser opens it. */
    async joiner(/** @type {string} */ link) {
      const visit = await fetch(link, { redirect: 'manual' });
      if (visit.status !== 303) throw new Error(`the share link answered ${visit.status}`);
      return open(String(visit.headers.get('set-cookie')).split(';')[0]);
    },
  };
}

/**
 * One round: the owner's incremental updates for ROUND_MS, with `viewers` drawing meanwhile.
 * @param {RfbClient} owner @param {RfbClient[]} viewers
 */
async function ownerRound(owner, viewers) {
  const drawing = viewers.map((v) => v.incrementalUpdates(ROUND_MS + 2 * VIEWER_LEAD_MS));
  if (viewers.length > 0) await sleep(VIEWER_LEAD_MS);
  const own = await owner.incrementalUpdates(ROUND_MS);
  const seen = await Promise.all(drawing);
  return { fps: own.updates / own.seconds, viewerFps: seen.map((s) => s.updates / s.seconds) };
}

/**
 * Rounds alone and with viewers, taking turns at going first; each with-round attaches two new
 * joiners through the link and lets them go after.
 * @param {ReturnType<typeof streams>} on @param {RfbClient} owner @param {string} link
 * @param {number} servicePid
 */
async function alternate(on, owner, link, servicePid) {
  /** @type {{ alone: number[], shared: number[], viewers: number[], cpu: { alone: number, shared: number } }} */
  const out = { alone: [], shared: [], viewers: [], cpu: { alone: 0, shared: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? ['alone', 'shared'] : ['shared', 'alone']) {
      const viewers =
        side === 'shared'
          ? await Promise.all(Array.from({ length: VIEWERS }, () => on.joiner(link)))
          : [];
      const serviceBefore = cpuSeconds(servicePid);
      const r = await ownerRound(owner, viewers);
      const service = cpuSeconds(servicePid) - serviceBefore;
      for (const v of viewers) v.close();
      if (side === 'alone') {
        out.alone.push(r.fps);
        out.cpu.alone += service;
      } else {
        out.shared.push(r.fps);
        out.viewers.push(...r.viewerFps);
        out.cpu.shared += service;
      }
      await sleep(300);
    }
  }
  const ratios = out.alone.map((a, i) => out.shared[i] / a);
  return { ...out, ratio: median(ratios), ratios };
}

async function main() {
  buildApps(['workspace-api']);
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  /** @type {import('./lib/desktop-platform.mjs').Platform | undefined} */
  let platform;
  let kasmId = '';
  /** @type {RfbClient | undefined} */
  let owner;
  try {
    log('Workspace image: Desktop');
    await ensureWorkspaceImages(engine.host, { only: ['desktop'], log: (l) => log(`  ${l}`) });
    platform = await startPlatform(engine, {
      name: 'workspace-api-sharing',
      friendlyName: 'Desktop',
    });
    // The joiners are anonymous: a link that names nobody admits them where the workspace does.
    await platform.call('update_image', {
      target_image: { image_id: platform.imageId, allow_anonymous_join: true },
    });
    const launched = await platform.launch();
    kasmId = launched.kasmId;
    const container = await sessionContainer(engine.host, kasmId);
    const on = streams(platform, kasmId);
    const { url: link } = await platform.call('create_kasm_share_link', {
      kasm_id: kasmId,
      role: 'view',
    });
    owner = await on.open(launched.cookie);

    /** @type {{ label: string, result: Awaited<ReturnType<typeof alternate>> }[]} */
    const runs = [];
    for (const [label, pause] of /** @type {[string, number][]} */ ([
      [`terminal paced, a line every ${PACE_S * 1000} ms`, PACE_S],
      ['terminal printing as fast as it can', 0],
    ])) {
      await execDetached(engine.host, container.Id, mover(pause));
      await sleep(2000);
      log(`${label}: ${ROUNDS} rounds of ${ROUND_MS} ms alone and with ${VIEWERS} view joiners`);
      await owner.incrementalUpdates(1000);
      const result = await alternate(on, owner, link, platform.pid);
      runs.push({ label, result });
      await execOutput(engine.host, container.Id, `kill $(cat ${MOVER_PID})`);
      await sleep(1000);
    }
    // Every joiner came in through the view link: the referee dropped whatever they might send.
    const { participants } = await platform.call('get_kasm_participants', { kasm_id: kasmId });
    const roles = new Set(participants.map((/** @type {{ role: string }} */ p) => p.role));
    if (participants.length !== runs.length * VIEWERS * ROUNDS || [...roles].join() !== 'view')
      throw new Error(`unexpected joiners: ${JSON.stringify(participants)}`);

    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const fmt = (/** @type {number[]} */ v) => v.map((x) => x.toFixed(1)).join(' ');
    log(`\n${os.cpus().length} cores, load average ${load}`);
    log(`${participants.length} view joiners in all, each through the share link`);
    for (const { label, result: r } of runs) {
      log(`${label}, owner updates/s alone: ${fmt(r.alone)}`);
      log(`${label}, owner updates/s with viewers: ${fmt(r.shared)}`);
      log(`${label}, each viewer's updates/s: ${fmt(r.viewers)}`);
      log(`${label}, ratios: ${r.ratios.map((x) => x.toFixed(2)).join(' ')}`);
    }
    const perRound = (/** @type {number} */ s) => `${((s / ROUNDS) * 1000).toFixed(0)} ms`;
    log('');
    log(
      `| owner's frame rate (${ROUNDS} rounds of ${ROUND_MS / 1000} s a side) | alone, updates/s | with ${VIEWERS} view joiners | viewers, updates/s each | service CPU a round, alone / with | ratio | target |`,
    );
    log('|---|---:|---:|---:|---:|---:|---|');
    for (const { label, result: r } of runs)
      log(
        `| ${label} | ${median(r.alone).toFixed(1)} | ${median(r.shared).toFixed(1)} | ${median(r.viewers).toFixed(1)} | ${perRound(r.cpu.alone)} / ${perRound(r.cpu.shared)} | ${r.ratio.toFixed(2)} | ≥ ${TARGET} ${r.ratio >= TARGET ? 'PASS' : 'FAIL'} |`,
      );
    process.exitCode = runs.every((r) => r.result.ratio >= TARGET) ? 0 : 1;
  } finally {
    owner?.close();
    if (kasmId) await platform?.destroy(kasmId).catch(() => undefined);
    await platform?.stop();
    await engine.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
