// @ts-check
// Debian's Chromium through playwright-core, as the desktop tests drive it: signed in on the
// service's root page, Launch clicked, and the desktop's first frame decided by the pixels of
// noVNC's canvas (tools/workspaces/desktop-canvas.cjs), not by its connection state.
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
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

export function launchBrowser() {
  const executablePath = chromiumPath();
  if (!executablePath)
    throw new Error("No Chromium: install Debian's chromium or set CHROMIUM_PATH");
  // As root Chromium needs --no-sandbox; /dev/shm is small in containers.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * Waits until the tab's canvas shows a desktop; returns when (performance.now()). `recover` runs
 * when the tab shows Chromium's error page (ERR_NETWORK_CHANGED while the engine adds the
 * container's interface, or a server not yet listening); each recovery is counted.
 * @param {Page} tab
 * @param {() => Promise<void>} recover
 */
export async function firstFrame(tab, recover) {
  const deadline = performance.now() + FRAME_TIMEOUT_MS;
  let recoveries = 0;
  while (performance.now() < deadline) {
    if (tab.url().startsWith('chrome-error:')) {
      recoveries += 1;
      await recover().catch(() => undefined);
      continue;
    }
    // Between two pages of a navigation there is no document to ask: that counts as no frame.
    const colours = await tab.evaluate(CANVAS_COLOURS).catch(() => 0);
    if (colours >= DESKTOP_COLOURS) return { at: performance.now(), recoveries };
    await sleep(POLL_MS);
  }
  throw new Error(`no desktop frame within ${FRAME_TIMEOUT_MS / 1000} s at ${tab.url()}`);
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

const SESSION_PAGE = /\/sessions\/([0-9a-f]{32})(?:$|[/?])/;

/**
 * Clicks Launch on the workspace and follows the tab it opens until the desktop's first frame.
 * A tab that lands on an error page is opened again from the session's start page, as a person
 * would. Returns the time from the click, the session, and how often the tab had to be reopened.
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
  /** @type {string[]} */
  const failed = [];
  tab.on('request', (request) => (kasmId ??= SESSION_PAGE.exec(request.url())?.[1] ?? null));
  tab.on('requestfailed', (request) => failed.push(request.failure()?.errorText ?? 'failed'));
  const { at, recoveries } = await firstFrame(tab, async () => {
    await tab.goto(`${origin}/sessions/${kasmId}`);
    await tab.getByRole('button', { name: 'Open the workspace' }).click();
  });
  return { ms: at - started, kasmId: String(kasmId), tab, recoveries, failed };
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
  /** @type {string[]} */
  const failed = [];
  tab.on('requestfailed', (request) => failed.push(request.failure()?.errorText ?? 'failed'));
  const open = () => tab.goto(`${origin}/`).then(() => undefined);
  await open().catch(() => undefined);
  const { at, recoveries } = await firstFrame(tab, open);
  return { at, context, recoveries, failed };
}
