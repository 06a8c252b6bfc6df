import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';

/** The widths every page is looked at (and photographed) in. */
export const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/**
 * Debian's Chromium (the Jest configs find it with tools/jest/browser-tests.cjs and set
 * TEST_CHROMIUM_PATH); playwright-core never downloads a browser. `extraArgs` go to Chromium
 * (e.g. `--host-resolver-rules` to give the test server a second host name).
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = process.env.TEST_CHROMIUM_PATH;
  if (!executablePath) throw new Error('TEST_CHROMIUM_PATH is not set (see jest.config.cjs)');
  // As root Chromium needs --no-sandbox; /dev/shm is small in containers.
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-dev-shm-usage', ...extraArgs],
  });
}

/** Writes `<dir>/<name>-desktop.png` and `<dir>/<name>-phone.png`, then puts the desktop size back. */
export async function takeScreenshots(page: Page, dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.desktop);
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Serious and critical axe-core violations on the page. axe is evaluated through the DevTools
 * protocol, which the page's CSP does not block (an injected <script> would be refused).
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  // Code for the page is a string: this project is typed for Node, not the DOM.
  const violations = (await page.evaluate(
    'axe.run(document).then((result) => result.violations)',
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
}

/**
 * Every request the page made that left `origin` (and `others`: a test's identity provider),
 * and every CSP refusal it logged.
 */
export function watchPage(page: Page, origin: string, others: string[] = []) {
  const outside: string[] = [];
  const refusals: string[] = [];
  const inside = [origin, ...others].map((o) => `${o}/`);
  page.on('request', (request) => {
    const url = request.url();
    if (!inside.some((o) => url.startsWith(o)) && !/^(data|about):/.test(url)) outside.push(url);
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
  });
  return { outside, refusals };
}

/**
 * A page's failed loads: all of them (error and address), and the errors of those since its
 * document was last loaded.
 */
interface FailedLoads {
  all: string[];
  sinceLoad: string[];
}
const failedLoads = new WeakMap<Page, FailedLoads>();

/**
 * Counts, from now on, the page's loads that failed other than by a navigation's cancelling.
 * Chromium aborts loads in flight with ERR_NETWORK_CHANGED whenever an interface or address of
 * the machine changes, which a Docker engine on the same machine does as it starts and removes
 * containers: a page whose script or data was lost so never gets ready.
 */
export function watchLoads(page: Page): void {
  const failed: FailedLoads = { all: [], sinceLoad: [] };
  failedLoads.set(page, failed);
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) failed.sinceLoad = [];
  });
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? 'failed';
    if (error === 'net::ERR_ABORTED') return;
    failed.all.push(`${error} ${request.url()}`);
    failed.sinceLoad.push(error);
  });
}

/** How long a page may take to get ready before a lost load is answered by a reload. */
const RELOAD_AFTER_MS = 10_000;
/** How often a page is looked at for a load a network change aborted. */
const LOOK_EVERY_MS = 500;

/**
 * Waits up to `limitMs` for `ready` on `page` (watched by watchLoads), loading the page again, as a
 * person would, when one of its loads failed since its document was loaded: at once for a load a
 * network change aborted (the page's own retries never see those: its module graph is lost), after
 * RELOAD_AFTER_MS for any other (a page may retry its own). While a Docker engine starts
 * containers, the next network change may come within seconds: each load gets the most of the
 * time between them. The error names the failed loads.
 */
export async function readyDespiteLostLoads(page: Page, ready: Locator, limitMs: number) {
  const failed = failedLoads.get(page);
  if (!failed) throw new Error('readyDespiteLostLoads needs a page watched by watchLoads');
  const deadline = performance.now() + limitMs;
  let loadedAt = performance.now();
  // A reload whose own document a network change lost shows Chromium's error page: again.
  let reloadLost = false;
  for (;;) {
    const left = deadline - performance.now();
    const timeout = Math.max(1, Math.min(left, LOOK_EVERY_MS));
    if (
      await ready.waitFor({ timeout }).then(
        () => true,
        () => false,
      )
    )
      return;
    if (performance.now() >= deadline)
      throw new Error(
        `the page was not ready within ${limitMs} ms; failed loads: ${failed.all.join(', ') || 'none'}`,
      );
    const waited = performance.now() - loadedAt;
    if (
      reloadLost ||
      failed.sinceLoad.includes('net::ERR_NETWORK_CHANGED') ||
      (failed.sinceLoad.length > 0 && waited >= RELOAD_AFTER_MS)
    ) {
      reloadLost = await page.reload().then(
        () => false,
        () => true,
      );
      loadedAt = performance.now();
    }
  }
}

export interface BrowserPages {
  browser: Browser;
  context: BrowserContext;
  /** This test's page, at desktop width. */
  page: Page;
}

/**
 * For a test file: one Chromium, and for each test a fresh context and page that must neither
 * load anything from outside `origin()` (and `others()`) nor meet a CSP refusal (checked after the test).
 * `origin` is read in beforeEach, after the file's beforeAll started the server.
 */
export function useBrowserPages(
  origin: () => string,
  others: () => string[] = () => [],
): BrowserPages {
  const pages = {} as BrowserPages;
  let watched: ReturnType<typeof watchPage>;
  beforeAll(async () => {
    pages.browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.browser?.close();
  });
  beforeEach(async () => {
    pages.context = await pages.browser.newContext({ viewport: WIDTHS.desktop });
    pages.page = await pages.context.newPage();
    watched = watchPage(pages.page, origin(), others());
    watchLoads(pages.page);
  });
  afterEach(async () => {
    await pages.context.close();
    expect(watched.outside).toEqual([]);
    expect(watched.refusals).toEqual([]);
  });
  return pages;
}
