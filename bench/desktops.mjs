#!/usr/bin/env node
// @ts-check
// `npm run bench:desktops`: the project's Desktop workspace on a real Docker engine (DOCKER_HOST,
// or a private dockerd as the engine tests start one), each figure against a baseline measured
// in the same run: Launch click → first frame in Chromium against the engine's own create +
// start and the container's page opened directly; the VNC stream through the session proxy
// against straight to the container; an idle desktop's memory against the same container
// started by the engine alone, and how many desktops one agent of this machine holds; a staged
// launch (a session started before anyone asked) against a cold one of the same image.
// See bench/README.md.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launchBrowser } from './lib/desktop-browser.mjs';
import { removeContainer, sessionContainer } from './lib/desktop-engine.mjs';
import { measureCapacity } from './lib/desktop-capacity.mjs';
import { measureLaunches } from './lib/desktop-launches.mjs';
import { startPlatform } from './lib/desktop-platform.mjs';
import { measureStaging, stagingRows } from './lib/desktop-staging.mjs';
import { measureStream } from './lib/desktop-stream.mjs';
import { RESULTS_DIR } from './lib/paths.mjs';
import { capacityRows, COLUMNS, launchRows, streamRows } from './lib/desktop-report.mjs';
import { formatTable } from './lib/report.mjs';

const require = createRequire(import.meta.url);
const { buildApps } = require('../tools/services.cjs');
const { startTestEngine } = require('../tools/docker-engine.cjs');
const { ensureWorkspaceImages } = require('../tools/workspaces/workspace-images.cjs');

const WORKSPACE = { stage: 'desktop', friendlyName: 'Desktop' };
const LAUNCHES = Number(process.env.BENCH_DESKTOP_LAUNCHES ?? 5);
const STAGED_API_RUNS = Number(process.env.BENCH_STAGED_API_RUNS ?? 20);
// A guard only: an agent that takes more desktops than this is reported as holding "more".
const MAX_SESSIONS = Number(process.env.BENCH_DESKTOP_MAX_SESSIONS ?? 40);
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

/** @typedef {import('./lib/desktop-launches.mjs').Started} Started */

/** Ends every session and container the run started and has not ended, whatever happened. */
async function cleanUp(
  /** @type {any} */ platform,
  /** @type {string} */ host,
  /** @type {Started} */ started,
) {
  for (const id of started.sessions) await platform?.destroy(id).catch(() => undefined);
  for (const id of started.containers) await removeContainer(host, id).catch(() => undefined);
}

/** BENCH_ONLY=launch,stream,staging,capacity: the parts to run (all by default). */
const ONLY = process.env.BENCH_ONLY?.split(',') ?? ['launch', 'stream', 'staging', 'capacity'];

async function main() {
  const startedAt = new Date().toISOString();
  buildApps(['workspace-api']);
  const engine = await startTestEngine();
  if (!engine)
    throw new Error('No Docker engine: set DOCKER_HOST, or run as root with dockerd on PATH');
  /** @type {Started} */
  const started = { sessions: new Set(), containers: new Set() };
  /** @type {import('./lib/desktop-platform.mjs').Platform | undefined} */
  let platform;
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  const stop = async () => {
    await cleanUp(platform, engine.host, started);
    await browser?.close();
    await platform?.stop();
    await engine.stop();
  };
  process.once('SIGINT', () => {
    log('Interrupted; cleaning up');
    stop().finally(() => process.exit(130));
  });
  try {
    log(`Engine ${engine.host} (${engine.kind}); the ${WORKSPACE.stage} image:`);
    const images = await ensureWorkspaceImages(engine.host, { only: [WORKSPACE.stage], log });
    log(images.map((r) => `  ${r.image} ${r.action} (${r.sizeMb} MB)`).join('\n'));
    platform = await startPlatform(engine, {
      name: 'workspace-api-desktops',
      friendlyName: WORKSPACE.friendlyName,
    });
    const results = { startedAt, image: images, agent: platform.agent };
    /** @type {import('./lib/desktop-report.mjs').Row[]} */
    const rows = [];

    if (ONLY.includes('launch')) {
      log(`Launching ${LAUNCHES} desktops from the page and as many bare containers, alternating`);
      browser = await launchBrowser();
      const launches = await measureLaunches({
        platform,
        engineHost: engine.host,
        browser,
        friendlyName: WORKSPACE.friendlyName,
        launches: LAUNCHES,
        started,
      });
      await browser.close();
      browser = undefined;
      rows.push(...launchRows(launches));
      Object.assign(results, { launches });
    }
    if (ONLY.includes('stream')) {
      log('Streaming a session through the proxy and straight from its container');
      const session = await platform.launch();
      started.sessions.add(session.kasmId);
      const container = await sessionContainer(engine.host, session.kasmId);
      const stream = await measureStream(platform, engine.host, { ...session, container });
      await platform.destroy(session.kasmId);
      started.sessions.delete(session.kasmId);
      rows.push(...streamRows(stream));
      Object.assign(results, { stream });
    }
    if (ONLY.includes('staging')) {
      log('Staged launches against cold ones of the same image');
      browser = await launchBrowser();
      const staging = await measureStaging({
        platform,
        browser,
        friendlyName: WORKSPACE.friendlyName,
        apiRuns: STAGED_API_RUNS,
        pageRuns: LAUNCHES,
        started,
        log,
      });
      await browser.close();
      browser = undefined;
      rows.push(...stagingRows(staging));
      Object.assign(results, { staging });
    }
    if (ONLY.includes('capacity')) {
      log('Launching desktops through the API until the agent refuses one');
      const capacity = await measureCapacity(platform, engine.host, started, MAX_SESSIONS);
      rows.push(...capacityRows(capacity, platform.agent, MAX_SESSIONS));
      Object.assign(results, { capacity });
    }

    log(formatTable(rows, COLUMNS));
    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    fs.writeFileSync(
      path.join(RESULTS_DIR, 'desktops-latest.json'),
      `${JSON.stringify({ ...results, rows }, null, 2)}\n`,
    );
    process.exitCode = rows.some((r) => r.pass === false) ? 1 : 0;
  } finally {
    await stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
