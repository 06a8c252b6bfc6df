import type { Browser, BrowserContext, Page } from 'playwright-core';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { VALID_PASSWORD } from '../factories';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { launchChromium, LONG, screenshots, seriousViolations, watchPage } from './browser-fixture';

jest.setTimeout(4 * LONG);

let w: SessionWorld;
let browser: Browser;
let origin: string;
let context: BrowserContext;
let page: Page;
let friendlyName: string;

beforeAll(async () => {
  w = await createSessionWorld();
  origin = await w.h.app.listen({ host: '127.0.0.1', port: 0 });
  // kasm_url is built from the zone: point it at this server, as npm start does for its own port.
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1', proxyPort: Number(new URL(origin).port) },
  });
  friendlyName = (await w.h.db.image.findUniqueOrThrow({ where: { id: toUuid(w.imageId) } }))
    .friendlyName;
  await w.member('ada');
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await closeWorld(w);
});

describe('sessions from the web page in Chromium', () => {
  it('launches a workspace, watches it start and lands in it through the proxy in a new tab', async () => {
    const watched = watchPage(page, origin);
    await page.goto(`${origin}/`);
    await page.getByLabel('Username').fill('ada');
    await page.getByLabel('Password').fill(VALID_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: friendlyName }).waitFor();

    const visited: string[] = [];
    context.on('request', (request) => visited.push(new URL(request.url()).pathname));
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: `Launch ${friendlyName}` }).click(),
    ]);
    const tabWatch = watchPage(tab, origin);

    await tab.waitForURL(/\/kasm\/[0-9a-f]{32}\/$/, { timeout: LONG });
    await tab.waitForFunction("document.title === 'Platform test workspace'", undefined, {
      timeout: LONG,
    });
    expect(new URL(tab.url()).search).toBe('');
    // Through the start page (status and progress) and the connect link, which the proxy swapped.
    const kasmId = new URL(tab.url()).pathname.split('/')[2];
    expect(visited).toEqual(
      expect.arrayContaining([`/sessions/${kasmId}`, `/sessions/${kasmId}/open`]),
    );
    expect(tabWatch.outside).toEqual([]);
    // The container never sees the platform's cookies: not the grant, not the login session.
    const seen = await (await tab.request.get(`${origin}/kasm/${kasmId}/headers`)).json();
    expect(String(seen.cookie ?? '')).not.toMatch(/ws_session|kasm_grant/);
    await tab.close();

    // The list refreshes itself: the session appears, running, with its actions.
    const session = page.locator('.session', { hasText: friendlyName });
    await session.getByText('running').waitFor({ timeout: LONG });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'sessions');
    expect(watched.outside).toEqual([]);
    expect(watched.refusals).toEqual([]);
  });

  it('shows the start page with its status and an Open button, also without JavaScript', async () => {
    const kasm = await w.h.db.kasm.findFirstOrThrow({ where: { status: 'running' } });
    const plain = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    const start = await plain.newPage();
    await start.goto(`${origin}/sessions/${kasm.id.replaceAll('-', '')}`);
    await start.getByRole('status').getByText('running').waitFor();
    expect(await start.locator('#launch-progress').getAttribute('value')).toBe('100');
    await start.getByRole('button', { name: 'Open the workspace' }).click();
    await start.waitForURL(/\/kasm\/[0-9a-f]{32}\/$/, { timeout: LONG });
    expect(await start.title()).toBe('Platform test workspace');
    await plain.close();
    // With JavaScript (a running session's page opens nothing by itself): accessible, and pictured.
    const shown = await context.newPage();
    await shown.goto(`${origin}/sessions/${kasm.id.replaceAll('-', '')}`);
    await shown.getByRole('button', { name: 'Open the workspace' }).waitFor();
    expect(await seriousViolations(shown)).toEqual([]);
    await screenshots(shown, 'session-start');
    await shown.close();
  });

  it('keeps the session alive and destroys it, container and all', async () => {
    const kasm = await w.h.db.kasm.findFirstOrThrow({ where: { status: 'running' } });
    const session = page.locator('.session', { hasText: friendlyName });
    await session.getByRole('button', { name: `Keep alive ${friendlyName}` }).click();
    await page.getByText('The session was kept alive.').waitFor();
    const kept = await w.h.db.kasm.findUniqueOrThrow({ where: { id: kasm.id } });
    expect(kept.keepaliveAt).not.toBeNull();

    await page
      .locator('.session', { hasText: friendlyName })
      .getByRole('button', { name: `Destroy ${friendlyName}` })
      .click();
    await page.getByText('The session was destroyed.').waitFor({ timeout: LONG });
    await page.getByText('You have no running sessions.').waitFor();
    const stopped = await w.h.db.kasm.findUniqueOrThrow({ where: { id: kasm.id } });
    expect(stopped.status).toBe('destroyed');
    await waitFor(async () => expect(await w.containersOf(kasm.id)).toEqual([]), LONG);
  });
});
