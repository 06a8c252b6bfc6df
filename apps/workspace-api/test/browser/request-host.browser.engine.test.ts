import type { Browser } from 'playwright-core';
import { toUuid, toWireId } from '@platform/schemas';
import { VALID_PASSWORD } from '../factories';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { launchChromium, LONG, watchPage } from './browser-fixture';

jest.setTimeout(6 * LONG);

/** A second name for this machine, as another computer on the network would call it. */
const OTHER_NAME = 'workstation.test';

let w: SessionWorld;
let browser: Browser;
let port: number;
let friendlyName: string;

beforeAll(async () => {
  w = await createSessionWorld();
  port = Number(new URL(await w.h.app.listen({ host: '127.0.0.1', port: 0 })).port);
  // What setup gives `npm start`'s zone "local": sessions on the host each page is on.
  const res = await w.h.call('update_zone', {
    target_zone: { zone_id: w.zoneId, proxy_hostname: '$request_host$', proxy_port: 0 },
  });
  expect(res.statusCode).toBe(200);
  friendlyName = (await w.h.db.image.findUniqueOrThrow({ where: { id: toUuid(w.imageId) } }))
    .friendlyName;
  browser = await launchChromium([`--host-resolver-rules=MAP ${OTHER_NAME} 127.0.0.1`]);
});
afterAll(async () => {
  await browser?.close();
  await closeWorld(w);
});

describe.each([
  ['127.0.0.1', 'lin'],
  [OTHER_NAME, 'mae'],
])('a $request_host$ zone with the page opened at %s, in Chromium', (host, username) => {
  const origin = () => `http://${host}:${port}`;
  const onSession = () => new RegExp(`^${origin().replace(/\./g, '\\.')}/kasm/[0-9a-f]{32}/$`);
  let kasmId: string;

  it('launches a session and the new tab lands on it, on the page’s own host', async () => {
    await w.member(username);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin()}/`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(VALID_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: friendlyName }).waitFor();
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: `Launch ${friendlyName}` }).click(),
    ]);
    const watched = watchPage(tab, origin());
    await tab.waitForURL(onSession(), { timeout: LONG });
    await tab.waitForFunction("document.title === 'Platform test workspace'", undefined, {
      timeout: LONG,
    });
    kasmId = new URL(tab.url()).pathname.split('/')[2];
    expect(watched.refusals).toEqual([]);
    expect(watched.outside).toEqual([]);

    // The Open form itself (no script): its redirect is one the page's form-action admits.
    const plain = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    const start = await plain.newPage();
    const startWatch = watchPage(start, origin());
    await start.goto(`${origin()}/sessions/${kasmId}`);
    await start.getByRole('button', { name: 'Open the workspace' }).click();
    await start.waitForURL(onSession(), { timeout: LONG });
    expect(await start.title()).toBe('Platform test workspace');
    expect(startWatch.refusals).toEqual([]);
    await plain.close();
    await context.close();
  });

  it('gives get_kasm_status callers a kasm_url on the host their request came to', async () => {
    const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } });
    const res = await w.h.inject({
      method: 'POST',
      url: '/api/public/get_kasm_status',
      headers: { host: `${host}:${port}` },
      payload: { ...w.h.admin, kasm_id: kasmId, user_id: toWireId(String(row.userId)) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().kasm_url).toMatch(new RegExp(`^${origin().replace(/\./g, '\\.')}/kasm/`));
  });
});
