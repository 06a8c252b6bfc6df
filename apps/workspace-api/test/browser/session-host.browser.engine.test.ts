import type { Browser, BrowserContext, Page } from 'playwright-core';
import { toUuid, toWireId } from '@platform/schemas';
import { VALID_PASSWORD } from '../factories';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { launchChromium, LONG } from './browser-fixture';

jest.setTimeout(4 * LONG);

/** The zone's own host name for sessions; Chromium resolves it to the test server. */
const SESSION_HOST = 'sessions.test';

let w: SessionWorld;
let browser: Browser;
let origin: string;
let sessionOrigin: string;
let context: BrowserContext;
let page: Page;
let tab: Page;
let kasmId: string;
let friendlyName: string;

beforeAll(async () => {
  w = await createSessionWorld();
  origin = await w.h.app.listen({ host: '127.0.0.1', port: 0 });
  const port = Number(new URL(origin).port);
  sessionOrigin = `http://${SESSION_HOST}:${port}`;
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: SESSION_HOST, proxyPort: port },
  });
  friendlyName = (await w.h.db.image.findUniqueOrThrow({ where: { id: toUuid(w.imageId) } }))
    .friendlyName;
  await w.member('grace');
  browser = await launchChromium([`--host-resolver-rules=MAP ${SESSION_HOST} 127.0.0.1`]);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await closeWorld(w);
});

/** Runs `code` (an expression, as a string: this project is typed for Node) in the tab. */
const inTab = <T>(code: string) => tab.evaluate(code) as Promise<T>;

describe('sessions on a host name of their own, in Chromium', () => {
  it('opens the workspace from the platform’s page on the session host', async () => {
    await page.goto(`${origin}/`);
    await page.getByLabel('Username').fill('grace');
    await page.getByLabel('Password').fill(VALID_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: friendlyName }).waitFor();
    [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: `Launch ${friendlyName}` }).click(),
    ]);
    // The session host does not see the page's login: the link first names whose session it is.
    await tab.getByRole('link', { name: 'Open grace’s session' }).click({ timeout: LONG });
    await tab.waitForURL(new RegExp(`^${sessionOrigin}/kasm/[0-9a-f]{32}/$`), { timeout: LONG });
    await tab.waitForFunction("document.title === 'Platform test workspace'", undefined, {
      timeout: LONG,
    });
    kasmId = new URL(tab.url()).pathname.split('/')[2];
    // The grant is host-only on the session host; the login cookie stays on the platform's.
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'kasm_grant')?.domain).toBe(SESSION_HOST);
    expect(cookies.find((c) => c.name === 'ws_session')?.domain).toBe('127.0.0.1');
  });

  it('keeps the workspace’s page from reading the platform’s page or its cookies', async () => {
    const crossOrigin = await inTab<string>(
      `fetch(${JSON.stringify(`${origin}/`)}, { credentials: 'include' })
        .then((r) => r.text()).then(() => 'read', () => 'blocked')`,
    );
    expect(crossOrigin).toBe('blocked');
    // Its own origin's "/" is the sign-in form: the browser's login is not sent to this host.
    const own = await inTab<string>("fetch('/').then((r) => r.text())");
    expect(own).toContain('name="password"');
    expect(own).not.toContain('grace');
    expect(await inTab<string>('document.cookie')).not.toMatch(/ws_session|kasm_grant/);
    // What the container sees of the browser's cookies here (its own are welcome; ours are not).
    const seen = await inTab<{ cookie?: string }>(
      "fetch(location.pathname + 'headers').then((r) => r.json())",
    );
    expect(String(seen.cookie ?? '')).not.toMatch(/ws_session|kasm_grant|ws_form/);
  });

  it('lets the workspace’s page open WebSockets to its own host (Origin checked)', async () => {
    const echoed = await inTab<string>(
      `new Promise((resolve, reject) => {
        const socket = new WebSocket(location.origin.replace('http', 'ws') + location.pathname + 'websockify');
        socket.onopen = () => socket.send('hello from the workspace');
        socket.onmessage = (event) => { socket.close(); resolve(String(event.data)); };
        socket.onerror = () => reject(new Error('refused'));
      })`,
    );
    expect(echoed).toBe('hello from the workspace');
  });

  it('refuses to open the session on the platform’s own origin', async () => {
    const status = await w.h.call('get_kasm_status', {
      kasm_id: kasmId,
      user_id: toWireId(
        String((await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } })).userId),
      ),
    });
    const link = new URL(status.json().kasm_url);
    expect(link.host).toBe(new URL(sessionOrigin).host);
    // Served here, the workspace's page could read the signed-in user's pages and CSRF tokens.
    const sameOrigin = await context.newPage();
    const res = await sameOrigin.goto(`${origin}${link.pathname}${link.search}`);
    expect(res?.status()).toBe(403);
    expect(await sameOrigin.title()).not.toBe('Platform test workspace');
    await sameOrigin.close();
  });
});
