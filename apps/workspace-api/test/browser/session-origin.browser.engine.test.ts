import { lstat, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { VALID_PASSWORD } from '../factories';
import { ADMINISTRATORS, createMember } from '../group-factories';
import {
  buildHopImage,
  closeWorld,
  createSessionWorld,
  type SessionWorld,
} from '../engine/session-fixture';
import { launchChromium, LONG } from './browser-fixture';

jest.setTimeout(4 * LONG);

// What a session's content can serve at /kasm/<id>/: its own server on the socket hop (here a
// registry image that declares the hop with a server of its own), a page, a service worker that
// asks for the whole origin, and a Clear-Site-Data answer.
const OWN_SERVER = `
const fs = require('node:fs');
const SOCKET = '/run/workspace-platform/websockify.sock';
try { fs.unlinkSync(SOCKET); } catch {}
const WORKER = "self.addEventListener('fetch', (e) => e.respondWith(new Response('owned', { headers: { 'content-type': 'text/html' } })));";
require('node:http').createServer((req, res) => {
  const path = req.url.split('?')[0];
  if (path === '/sw.js') {
    res.writeHead(200, { 'content-type': 'text/javascript', 'service-worker-allowed': '/' });
    return res.end(WORKER);
  }
  if (path === '/clear') {
    res.writeHead(200, { 'content-type': 'text/plain', 'clear-site-data': '"cookies", "storage"' });
    return res.end('cleared');
  }
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><title>Own workspace page</title><h1>own page</h1>');
}).listen(SOCKET, () => fs.chmodSync(SOCKET, 0o777));
`;

const OWN_IMAGE = 'platform-test/web-own-hop:1';

let root: string;
let w: SessionWorld;
let browser: Browser;
let context: BrowserContext;
let tab: Page;
let consoleOrigin: string;
let sessionsOrigin: string;
let link: URL;
let freshLink: () => Promise<URL>;
/** The test web image's own workspace, whose hop serves nothing of its user's. */
let plainFriendlyName: string;

beforeAll(async () => {
  // Short: a Unix socket's path holds at most 107 bytes.
  root = await mkdtemp(path.join(tmpdir(), 'orig-'));
  const socketsDir = path.join(root, 's');
  w = await createSessionWorld({ SESSION_PORT: '3003', SESSION_SOCKETS_DIR: socketsDir });
  consoleOrigin = await w.h.app.listen({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((done) => w.h.app.sessionsServer.listen(0, '127.0.0.1', done));
  const sessionsPort = (w.h.app.sessionsServer.address() as AddressInfo).port;
  sessionsOrigin = `http://127.0.0.1:${sessionsPort}`;
  // npm start's zone: the page's host, the sessions listener's port.
  const zone = await w.h.call('update_zone', {
    target_zone: { zone_id: w.zoneId, proxy_hostname: '$request_host$', proxy_port: sessionsPort },
  });
  expect(zone.statusCode).toBe(200);

  const friendlyNameOf = async (imageId: string) =>
    (await w.h.db.image.findUniqueOrThrow({ where: { id: toUuid(imageId) } })).friendlyName;
  plainFriendlyName = await friendlyNameOf(w.imageId);
  await buildHopImage(OWN_IMAGE, OWN_SERVER);
  w.imageId = await w.addImage({ name: OWN_IMAGE });
  const mallory = await w.member('mallory');
  await createMember(w.h, ADMINISTRATORS, 'grace');
  const { kasm_id } = await w.request({ user_id: mallory.user_id });
  await w.waitForStatus(toUuid(kasm_id), 'running');
  const socket = path.join(socketsDir, kasm_id, 'websockify.sock');
  await waitFor(async () => expect((await lstat(socket)).isSocket()).toBe(true), LONG);
  // The link as the console's page would be given it: asked for on the console's host.
  freshLink = async () => {
    const status = await w.h.inject({
      method: 'POST',
      url: '/api/public/get_kasm_status',
      headers: { host: new URL(consoleOrigin).host },
      payload: { ...w.h.admin, kasm_id, user_id: mallory.user_id },
    });
    return new URL(status.json().kasm_url);
  };
  link = await freshLink();

  browser = await launchChromium();
  context = await browser.newContext();
  tab = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await closeWorld(w);
  await rm(root, { recursive: true, force: true });
});

/** Runs `code` (an expression, as a string: this project is typed for Node) in the session's tab. */
const inTab = <T>(code: string) => tab.evaluate(code) as Promise<T>;

/** A page load, once more when the engine's interface changes abort it (a container started). */
async function open(page: Page, url: string) {
  try {
    return await page.goto(url);
  } catch (error) {
    if (!String(error).includes('ERR_NETWORK_CHANGED')) throw error;
    return page.goto(url);
  }
}

describe('a session’s own page, on the sessions origin, in Chromium', () => {
  it('is opened by a signed-out browser on the sessions listener’s origin, never the console’s, after a page naming whose session it is', async () => {
    expect(link.origin).toBe(sessionsOrigin);
    expect(link.origin).not.toBe(consoleOrigin);
    await open(tab, link.href);
    await tab.getByRole('heading', { name: 'mallory’s session' }).waitFor();
    expect(await tab.title()).toBe('mallory’s session');
    await tab.getByRole('link', { name: 'Open mallory’s session' }).click();
    await tab.waitForFunction("document.title === 'Own workspace page'", undefined, {
      timeout: LONG,
    });
    expect(new URL(tab.url()).origin).toBe(sessionsOrigin);
  });

  it('cannot register a service worker, for the whole origin or its own folder', async () => {
    for (const scope of ["'/'", 'location.pathname']) {
      const outcome = await inTab<string>(
        `navigator.serviceWorker.register(location.pathname + 'sw.js', { scope: ${scope} })
          .then(() => 'registered', (error) => 'refused: ' + error.message)`,
      );
      expect(outcome).toMatch(/^refused: .*403/);
    }
    expect(
      await inTab<number>('navigator.serviceWorker.getRegistrations().then((r) => r.length)'),
    ).toBe(0);
  });

  it('cannot wipe the browser’s cookies with Clear-Site-Data, which is taken out of its answers', async () => {
    const before = (await context.cookies()).map((c) => c.name);
    expect(before).toContain('kasm_grant');
    const said = await inTab<string>("fetch(location.pathname + 'clear').then((r) => r.text())");
    expect(said).toBe('cleared');
    expect((await context.cookies()).map((c) => c.name)).toEqual(before);
  });

  it('reads nothing of the console, with the victim’s cookies, once the victim signs in beside it', async () => {
    const consolePage = await context.newPage();
    await open(consolePage, `${consoleOrigin}/`);
    await consolePage.getByLabel('Username').fill('grace');
    await consolePage.getByLabel('Password').fill(VALID_PASSWORD);
    await consolePage.getByRole('button', { name: 'Sign in' }).click();
    await consolePage.getByText('Signed in as').waitFor();
    await open(consolePage, `${consoleOrigin}/admin`);
    // The console's pages are the platform's own, not a worker's answer.
    expect(await consolePage.evaluate('navigator.serviceWorker.controller')).toBeNull();
    expect(await consolePage.content()).not.toContain('owned');

    for (const where of ['/', '/admin', '/admin/api-keys']) {
      const across = await inTab<string>(
        `fetch(${JSON.stringify(`${consoleOrigin}${where}`)}, { credentials: 'include' })
          .then((r) => r.text()).then(() => 'read', () => 'blocked')`,
      );
      expect(across).toBe('blocked');
      const here = await inTab<{ status: number; text: string }>(
        `fetch(${JSON.stringify(where)}, { credentials: 'include' })
          .then(async (r) => ({ status: r.status, text: await r.text() }))`,
      );
      expect(here.status).toBe(404);
      expect(here.text).not.toMatch(/grace|_csrf|name="password"/);
    }
    // Signed in as someone else than the session's owner, the browser is refused the link.
    const refused = await open(consolePage, (await freshLink()).href);
    expect(refused?.status()).toBe(403);
    expect(await consolePage.content()).not.toContain('Own workspace page');
    await consolePage.close();
  });

  it('is where the console’s Launch leads its owner, straight to the workspace, stream included', async () => {
    const own = await browser.newContext();
    const page = await own.newPage();
    await open(page, `${consoleOrigin}/`);
    await page.getByLabel('Username').fill('mallory');
    await page.getByLabel('Password').fill(VALID_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const [launched] = await Promise.all([
      own.waitForEvent('page'),
      page.getByRole('button', { name: `Launch ${plainFriendlyName}` }).click(),
    ]);
    await launched.waitForURL(new RegExp(`^${sessionsOrigin}/kasm/[0-9a-f]{32}/$`), {
      timeout: LONG,
    });
    await launched.waitForFunction("document.title === 'Platform test workspace'", undefined, {
      timeout: LONG,
    });
    // WebSockets come through the sessions listener too.
    const echoed = await launched.evaluate(`new Promise((resolve, reject) => {
      const socket = new WebSocket(location.origin.replace('http', 'ws') + location.pathname + 'websockify');
      socket.onopen = () => socket.send('over the sessions listener');
      socket.onmessage = (event) => { socket.close(); resolve(String(event.data)); };
      socket.onerror = () => reject(new Error('refused'));
    })`);
    expect(echoed).toBe('over the sessions listener');
    await own.close();
  });
});
