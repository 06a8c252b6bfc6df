import path from 'node:path';
import type { Browser, BrowserContext, Page, WebSocket } from 'playwright-core';
import { waitFor } from '@platform/testing';
import { VALID_PASSWORD } from '../factories';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { launchChromium } from '../browser/browser-fixture';
import { installOwnWorkspaces } from './own-workspaces';
// How a frame counts as a desktop is one rule, shared with bench:desktops (plain Node, which can
// read no TypeScript of libs/testing): the tools project holds it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { CANVAS_COLOURS, DESKTOP_COLOURS } from '../../../../tools/workspaces/desktop-canvas.cjs';

/** Launches start a desktop's container and its X server: generous, every wait ends early. */
export const LONG = 120_000;
/** The screenshots of the real desktops; docs/ holds copies of them. */
export const SCREENSHOT_DIR = path.resolve(__dirname, '../../screenshots');

export interface DesktopWorld {
  w: SessionWorld;
  origin: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  userId: string;
  /** The installed workspaces' image_id, by friendly name. */
  imageIds: Record<string, string>;
}

/**
 * A session world whose zone points at a listening app, the own registry added, the workspaces
 * `friendlyNames` installed from it and allowed to the group, and `ada` signed in on the root
 * page in Chromium. `env` adds to the harness's configuration (SESSION_SOCKETS_DIR, say);
 * Chromium starts with `chromiumArgs` besides the usual ones.
 */
export async function createDesktopWorld(
  friendlyNames: string[],
  env: Record<string, string> = {},
  chromiumArgs: string[] = [],
): Promise<DesktopWorld> {
  const w = await createSessionWorld(env);
  const { origin, imageIds } = await installOwnWorkspaces(w, friendlyNames);
  const { user_id: userId } = await w.member('ada');

  const browser = await launchChromium(chromiumArgs);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.getByLabel('Username').fill('ada');
  await page.getByLabel('Password').fill(VALID_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  for (const name of friendlyNames) await page.getByRole('heading', { name }).waitFor();
  return { w, origin, browser, context, page, userId, imageIds };
}

export async function closeDesktopWorld(world: DesktopWorld | undefined) {
  await world?.browser.close();
  await closeWorld(world?.w);
}

export interface LaunchedDesktop {
  tab: Page;
  kasmId: string;
  /** The noVNC stream's WebSocket, once it opened. */
  stream: WebSocket;
  /** Every WebSocket the tab opened: noVNC opens another when a stream closes under load. */
  streams: WebSocket[];
}

/** The session page, `/kasm/<kasm_id>/`, once the connect link's token was spent. */
const SESSION_PAGE = /\/kasm\/[0-9a-f]{32}\/(\?(?!kasm_token).*)?$/;

/**
 * Presses Launch and follows the new tab to the session page (the platform's, at the session's
 * root), until its WebSocket is open. Chromium
 * aborts loads with ERR_NETWORK_CHANGED while the engine adds the container's interface: a tab
 * left on Chromium's error page is opened again from the session's start page, once, and a
 * noVNC page whose loads failed is reloaded.
 */
export async function launchDesktop(world: DesktopWorld, friendlyName: string) {
  const [tab] = await Promise.all([
    world.context.waitForEvent('page'),
    world.page.getByRole('button', { name: `Launch ${friendlyName}` }).click(),
  ]);
  const watched = watchTab(tab);
  const reached = () => tab.waitForURL(SESSION_PAGE, { timeout: LONG });
  await reached().catch(async (error) => {
    if (!tab.url().startsWith('chrome-error:')) throw error;
    const kasm = await world.w.h.db.kasm.findFirstOrThrow({ where: { status: 'running' } });
    await tab.goto(`${world.origin}/sessions/${kasm.id.replaceAll('-', '')}`);
    await tab.getByRole('button', { name: 'Open the workspace' }).click();
    await reached();
  });
  const kasmId = new URL(tab.url()).pathname.split('/')[2];
  const stream = await openStream(watched, kasmId);
  return { tab, kasmId, stream, streams: watched.streams } satisfies LaunchedDesktop;
}

interface WatchedTab {
  tab: Page;
  /** Every WebSocket the tab opened. */
  streams: WebSocket[];
  /** Whether a load of the session's page failed since the last reload (its modules, say). */
  broken: boolean;
  /** When the page was last (re)loaded, by performance.now(). */
  loadedAt: number;
}

/** A page with no open stream for this long is reloaded, as a person would after waiting. */
const STALLED_MS = 30_000;

/**
 * The tab's WebSockets and failed loads, from now on. A load under `/kasm/` that failed (other
 * than one a navigation cancelled) breaks noVNC's page: Chromium aborts loads with
 * ERR_NETWORK_CHANGED while the engine adds or removes a container's interface, and noVNC never
 * starts then.
 */
function watchTab(tab: Page): WatchedTab {
  const watched: WatchedTab = { tab, streams: [], broken: false, loadedAt: performance.now() };
  tab.on('websocket', (ws) => watched.streams.push(ws));
  tab.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? 'failed';
    if (error !== 'net::ERR_ABORTED' && request.url().includes('/kasm/')) watched.broken = true;
  });
  return watched;
}

/**
 * The session's stream through the proxy, once one of the tab's is open. A first attempt may
 * close (on a loaded machine the container's VNC server can be late): noVNC then reconnects, so
 * any open one counts, not only the first. A page that broke, or that has had no open stream
 * for STALLED_MS, is reloaded, as a person would.
 */
const openStream = (watched: WatchedTab, kasmId: string) =>
  waitFor(async () => {
    const open = watched.streams.find(
      (ws) => ws.url().endsWith(`/kasm/${kasmId}/websockify`) && !ws.isClosed(),
    );
    if (open) return open;
    if (watched.broken || performance.now() - watched.loadedAt > STALLED_MS) {
      watched.broken = false;
      watched.loadedAt = performance.now();
      await watched.tab.reload().catch(() => undefined);
    }
    throw new Error('the stream is not open yet');
  }, LONG);

/**
 * Opens `url` (a web VNC client of the session, through the proxy) in a new tab of `context` (the
 * signed-in one unless told), loading it once more after an ERR_NETWORK_CHANGED, until its stream is open.
 */
export async function openClient(
  world: DesktopWorld,
  kasmId: string,
  url: string,
  context: BrowserContext = world.context,
) {
  const tab = await context.newPage();
  const watched = watchTab(tab);
  await tab.goto(url).catch(async (error: Error) => {
    if (!/ERR_NETWORK_CHANGED/.test(error.message)) throw error;
    await tab.goto(url);
  });
  const stream = await openStream(watched, kasmId);
  return { tab, kasmId, stream, streams: watched.streams } satisfies LaunchedDesktop;
}

/**
 * Waits until no stream of the desktop's tab to its session is open: not only the first, which
 * may have closed long before (noVNC reconnects), leaving the one that counts open.
 */
export const streamsClosed = (desktop: LaunchedDesktop) =>
  waitFor(async () => {
    const open = desktop.streams.filter(
      (ws) => ws.url().endsWith(`/kasm/${desktop.kasmId}/websockify`) && !ws.isClosed(),
    );
    if (open.length > 0) throw new Error(`${open.length} stream(s) of the session still open`);
  }, LONG);

/** Destroys the session from the signed-in page, as its user does. */
export async function destroyFromPage(world: DesktopWorld, friendlyName: string) {
  await world.page
    .locator('.session', { hasText: friendlyName })
    .getByRole('button', { name: `Destroy ${friendlyName}` })
    .click();
  await world.page.getByText('The session was destroyed.').waitFor({ timeout: LONG });
}

export const canvasColours = (tab: Page): Promise<number> => tab.evaluate(CANVAS_COLOURS);

/** Waits until the desktop is drawn: the canvas shows more than a background. */
export async function waitForDesktop(tab: Page): Promise<number> {
  return waitFor(
    async () => {
      const colours = await canvasColours(tab);
      if (colours < DESKTOP_COLOURS) throw new Error(`the canvas shows ${colours} colour(s)`);
      return colours;
    },
    LONG,
    250,
  );
}

/**
 * Screenshots the desktop once programs started from its terminal have drawn their windows (their
 * icons and widgets add hundreds of colours to the canvas; text in the terminal adds tens). A
 * picture for the docs, so it asserts nothing.
 */
export async function screenshotWhenDrawn(tab: Page, before: number, name: string) {
  await waitFor(
    async () => {
      if ((await canvasColours(tab)) < before * 1.5) throw new Error('no new window drawn yet');
    },
    LONG / 4,
    250,
  ).catch(() => undefined);
  await tab.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** noVNC's canvas on the session page, or on noVNC's own page. */
export const DESKTOP_CANVAS = '#screen canvas, #noVNC_container canvas';

/**
 * Clicks into the terminal (the desktop opens it at the top left, focused) and types `lines`,
 * each followed by Enter, as a person would.
 */
export async function typeInTerminal(tab: Page, lines: string[]): Promise<void> {
  const box = await tab.locator(DESKTOP_CANVAS).boundingBox();
  if (!box) throw new Error('no canvas');
  await tab.mouse.click(box.x + 200, box.y + 150);
  for (const line of lines) {
    await tab.keyboard.type(line, { delay: 15 });
    await tab.keyboard.press('Enter');
  }
}

/** A file's text in the session's container, read through exec_command_kasm. */
export function fileInSession(world: DesktopWorld, kasmId: string, file: string) {
  return waitFor(
    async () => {
      const res = await world.w.h.call('exec_command_kasm', {
        kasm_id: kasmId,
        user_id: world.userId,
        exec_config: { cmd: `cat ${file}` },
      });
      expect(res.statusCode).toBe(200);
      if (res.json().exit_code !== 0) throw new Error(`${file}: ${res.json().output}`);
      return String(res.json().output);
    },
    LONG,
    250,
  );
}
