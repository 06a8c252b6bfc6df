// @ts-check
// Debian's Chromium through playwright-core, as the desktop tests drive it: signed in on the
// service's root page, Launch clicked, and the desktop's first frame decided by the pixels of
// noVNC's canvas (tools/workspaces/desktop-canvas.cjs), not by its connection state.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { RESULTS_DIR } from './paths.mjs';
import { sleep } from './processes.mjs';

const require = createRequire(import.meta.url);
const { CANVAS_COLOURS, DESKTOP_COLOURS } = require('../../tools/workspaces/desktop-canvas.cjs');
const { chromiumPath } = require('../../tools/jest/browser-tests.cjs');

/** @typedef {import('playwright-core').Browser} Browser */
/** @typedef {import('playwright-core').BrowserContext} BrowserContext */
/** @typedef {import('playwright-core').Page} Page */

/** Both sides' canvas is looked at this often: the resolution of a launch's time. */
const POLL_MS = 25;
const FRAME_TIMEOUT_MS = 120_000;
export const VIEWPORT = { width: 1280, height: 800 };

/** @param {string[]} [extraArgs] */
export function launchBrowser(extraArgs = []) {
  const executablePath = chromiumPath();
  if (!executablePath)
    throw new Error("No Chromium: install Debian's chromium or set CHROMIUM_PATH");
  // As root Chromium needs --no-sandbox; /dev/shm is small in containers.
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-dev-shm-usage', ...extraArgs],
  });
}

/**
 * What happened in a tab, as it happened: failed requests, answers of 400 and more, and its
 * WebSockets (opened, failed, closed). A request that failed (other than one a navigation
 * cancelled) and that `breaks` counts says the page may never draw: noVNC's modules abort with
 * `ERR_NETWORK_CHANGED` while the engine adds or removes a container's interface (the browser
 * runs on the engine's machine here), and noVNC does not start then.
 * @param {Page} tab @param {(url: string) => boolean} breaks
 */
export function watchTab(tab, breaks) {
  /** @type {string[]} */
  const events = [];
  let broken = false;
  const from = performance.now();
  const at = () => `${((performance.now() - from) / 1000).toFixed(2)} s`;
  tab.on('requestfailed', (r) => {
    const error = r.failure()?.errorText ?? 'failed';
    events.push(`${at()} failed ${r.url()}: ${error}`);
    if (error !== 'net::ERR_ABORTED' && breaks(r.url())) broken = true;
  });
  // noVNC asks for its own package.json (its version), which Debian's package does not ship.
  tab.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/package.json'))
      events.push(`${at()} ${r.status()} ${r.url()}`);
  });
  /** When (performance.now()) the session's page was asked for, parsed, its stream opened. */
  const marks = { requests: 0, page: 0, parsed: 0, lastAsset: 0, stream: 0 };
  tab.on('request', (r) => {
    if (!r.url().includes('/kasm/')) return;
    marks.requests += 1;
    if (r.isNavigationRequest()) marks.page = performance.now();
  });
  tab.on('requestfinished', (r) => {
    if (r.url().includes('/kasm/') && !marks.stream) marks.lastAsset = performance.now();
  });
  tab.on('domcontentloaded', () => (marks.parsed = performance.now()));
  tab.on('websocket', (ws) => {
    marks.stream ||= performance.now();
    events.push(`${at()} websocket ${ws.url()}`);
    ws.on('socketerror', (error) => events.push(`${at()} websocket error: ${error}`));
    ws.on('close', () => events.push(`${at()} websocket closed`));
  });
  return {
    events,
    marks,
    /** Whether the page broke since the last call (and forgets it). */
    takeBroken() {
      const was = broken;
      broken = false;
      return was;
    },
  };
}

/**
 * Waits until the tab's canvas shows a desktop; returns when (performance.now()). `recover` runs
 * when the tab shows Chromium's error page or its page broke (watchTab), as a person would
 * reload; each recovery is counted, and its time is part of the launch.
 * @param {Page} tab @param {ReturnType<typeof watchTab>} watch @param {() => Promise<unknown>} recover
 */
export async function firstFrame(tab, watch, recover) {
  const deadline = performance.now() + FRAME_TIMEOUT_MS;
  let recoveries = 0;
  while (performance.now() < deadline) {
    if (tab.url().startsWith('chrome-error:') || watch.takeBroken()) {
      recoveries += 1;
      // The rest of the page's loads fail in the same moment: let them, then load it again.
      await sleep(250);
      watch.takeBroken();
      await recover().catch(() => undefined);
      continue;
    }
    // One look per evaluate (Playwright's waitForFunction polls in the page, but its script,
    // injected while noVNC loads, delayed the page by 100–200 ms). Between two pages of a
    // navigation there is no document to ask: that counts as no frame.
    const colours = await tab.evaluate(CANVAS_COLOURS).catch(() => 0);
    if (colours >= DESKTOP_COLOURS) return { at: performance.now(), recoveries };
    await sleep(POLL_MS);
  }
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  await tab.screenshot({ path: path.join(RESULTS_DIR, 'desktops-no-frame.png') }).catch(() => {});
  throw new Error(
    `no desktop frame within ${FRAME_TIMEOUT_MS / 1000} s at ${tab.url()} (screenshot in ` +
      `bench/results/desktops-no-frame.png); what the tab saw:\n${watch.events.join('\n')}`,
  );
}

/**
 * A context signed in on the service's root page as `username`, its workspace list showing.
 * @param {Browser} browser @param {string} origin @param {string} username @param {string} password
 */
export async function signIn(browser, origin, username, password) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('button', { name: /^Launch / })
    .first()
    .waitFor();
  return { context, page };
}

// The start page of a launch, or the session itself when a staged one is handed over at once.
const SESSION_PAGE = /\/(?:sessions|kasm)\/([0-9a-f]{32})(?:$|[/?])/;

/**
 * Clicks Launch on the workspace and follows the tab it opens until the desktop's first frame.
 * A tab whose noVNC page broke is reloaded, and one that lands on an error page is opened again
 * from the session's start page, as a person would. Returns the time from the click, the session, and how often the tab had to be reopened.
 * @param {{ context: BrowserContext, page: Page }} signedIn @param {string} origin
 * @param {string} friendlyName
 */
export async function launchToFirstFrame({ context, page }, origin, friendlyName) {
  const started = performance.now();
  const [tab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: `Launch ${friendlyName}` }).click(),
  ]);
  /** @type {string | null} */
  let kasmId = null;
  tab.on('request', (request) => (kasmId ??= SESSION_PAGE.exec(request.url())?.[1] ?? null));
  // The start page's status polls retry by themselves (page.js): only the session's pages count.
  const watch = watchTab(tab, (url) => url.includes('/kasm/'));
  const recover = async () => {
    if (new URL(tab.url()).pathname.startsWith('/kasm/')) return tab.reload();
    await tab.goto(`${origin}/sessions/${kasmId}`);
    await tab.getByRole('button', { name: 'Open the workspace' }).click();
  };
  const { at, recoveries } = await firstFrame(tab, watch, recover);
  // Where the launch's time went, in ms from the click (0: did not happen).
  const since = (/** @type {number} */ t) => (t ? Math.round(t - started) : 0);
  const { requests, page: pageAt, parsed, lastAsset, stream } = watch.marks;
  const phases = {
    page: since(pageAt),
    parsed: since(parsed),
    lastAsset: since(lastAsset),
    stream: since(stream),
    frame: since(at),
    requests,
  };
  return {
    ms: at - started,
    kasmId: String(kasmId),
    tab,
    recoveries,
    events: watch.events,
    phases,
  };
}

/**
 * The container's own page in a fresh context (Basic credentials, its self-signed certificate
 * accepted) until the desktop's first frame; a load that fails is tried again at once.
 * @param {Browser} browser @param {number} port @param {string} password
 */
export async function openDirectToFirstFrame(browser, port, password) {
  const origin = `https://127.0.0.1:${port}`;
  const context = await browser.newContext({
    viewport: VIEWPORT,
    ignoreHTTPSErrors: true,
    httpCredentials: { username: 'kasm_user', password, origin },
  });
  const tab = await context.newPage();
  const watch = watchTab(tab, () => true);
  const open = () => tab.goto(`${origin}/`);
  await open().catch(() => undefined);
  const { at, recoveries } = await firstFrame(tab, watch, open);
  return { at, context, recoveries, events: watch.events };
}
