import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Screenshots of every page at both widths; git ignores the folder. */
export const SCREENSHOT_DIR = path.resolve(__dirname, '../../screenshots');
export const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
/** Launches wait on containers: generous, and every wait ends as soon as its thing happens. */
export const LONG = 60_000;

/** Debian's Chromium (jest.config.cjs found it); playwright-core never downloads a browser. */
export function launchChromium(): Promise<Browser> {
  const executablePath = process.env.TEST_CHROMIUM_PATH;
  if (!executablePath) throw new Error('TEST_CHROMIUM_PATH is not set (see jest.config.cjs)');
  // As root Chromium needs --no-sandbox; /dev/shm is small in containers.
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** Writes `<name>-desktop.png` and `<name>-phone.png`, then puts the desktop size back. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`),
      fullPage: true,
    });
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

/** Every request the page made that left `origin`, and every CSP refusal it logged. */
export function watchPage(page: Page, origin: string) {
  const outside: string[] = [];
  const refusals: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('about:'))
      outside.push(url);
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
  });
  return { outside, refusals };
}
