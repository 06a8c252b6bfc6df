import type { Browser } from 'playwright-core';
import { userActions, VALID_PASSWORD } from '../factories';
import { createHarness, type Harness } from '../harness';
import { launchChromium } from './browser-fixture';

// Over plain HTTP the platform's cookies keep their plain names, so a browser stores them at any
// name, not only at loopback ones where it also stores Secure cookies (decision 0014: a CSRF
// cookie named __Host- for every request left such a browser unable to submit any form).
let h: Harness;
let port: string;
let browser: Browser;
const { createUser } = userActions(() => h);

beforeAll(async () => {
  h = await createHarness({});
  port = new URL(await h.app.listen({ host: '127.0.0.1', port: 0 })).port;
  browser = await launchChromium(['--host-resolver-rules=MAP desk.test 127.0.0.1']);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

it('signs in and out over plain HTTP at a name that is not loopback', async () => {
  await createUser({ username: 'lan-user' });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`http://desk.test:${port}/`);
  await page.getByLabel('Username').fill('lan-user');
  await page.getByLabel('Password').fill(VALID_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Signed in as').waitFor();
  expect((await context.cookies()).map((c) => c.name)).toEqual(['ws_session']);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Username').waitFor();
  // Signed out: the login cookie is gone, and the sign-in page's form cookie is back.
  expect(await context.cookies()).toEqual([
    expect.objectContaining({ name: 'ws_form', domain: 'desk.test', secure: false }),
  ]);
  await context.close();
});
