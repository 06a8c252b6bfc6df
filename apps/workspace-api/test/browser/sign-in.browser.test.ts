import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createGroup, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { createImage } from '../image-factories';
import { userInput, VALID_PASSWORD } from '../factories';
import { launchChromium, screenshots, seriousViolations, watchPage } from './browser-fixture';

let h: Harness;
let browser: Browser;
let origin: string;
let context: BrowserContext;
let page: Page;
let watched: ReturnType<typeof watchPage>;

beforeAll(async () => {
  h = await createHarness({ MAX_FAILED_LOGINS: '3' });
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});
beforeEach(async () => {
  await h.reset();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  watched = watchPage(page, origin);
});
afterEach(async () => {
  await context.close();
  // Nothing the page loads comes from elsewhere, and the CSP never had to refuse anything.
  expect(watched.outside).toEqual([]);
  expect(watched.refusals).toEqual([]);
});

async function signIn(username: string, password: string) {
  await page.goto(`${origin}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A member of a group allowed two workspaces; two more exist that they may not use. */
async function arrangeWorkspaces() {
  const group = await createGroup(h, { name: 'Designers' });
  const user = await createMember(h, group.group_id, 'alice');
  const allow = async (friendlyName: string, extra = {}) => {
    const imageId = await createImage(h.db, { friendlyName, ...extra });
    await h.call('add_images_group', {
      target_group: { group_id: group.group_id },
      target_image: { image_id: imageId },
    });
  };
  await allow('Terminal', { description: 'A shell in the browser', categories: ['Development'] });
  await allow('Office Suite', {
    description: 'Documents and sheets',
    categories: ['Productivity'],
  });
  await allow('Retired Tool', { enabled: false });
  await createImage(h.db, { friendlyName: 'Admin Console' });
  return user;
}

describe('the web page in Chromium', () => {
  it('signs in and shows the allowed workspaces and only those', async () => {
    await arrangeWorkspaces();
    await page.goto(`${origin}/`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'sign-in');

    await signIn('alice', VALID_PASSWORD);
    await page.getByText('Signed in as').waitFor();
    const names = await page.locator('#workspaces h3').allTextContents();
    expect(names.sort()).toEqual(['Office Suite', 'Terminal']);
    await page.getByText('A shell in the browser').waitFor();
    await page.getByText('Productivity').waitFor();
    // The icon (the built-in one here) loads from the service.
    await page.waitForFunction(
      "[...document.querySelectorAll('#workspaces img')].every((img) => img.complete && img.naturalWidth > 0)",
    );
    expect(await page.getByText('You have no running sessions.').isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'workspaces');
  });

  it('works with the keyboard alone: skip link, fields, sign in, launch buttons', async () => {
    await arrangeWorkspaces();
    await page.goto(`${origin}/`);
    // The username field has the focus; before it come the home link and, first, the skip link.
    expect(await page.evaluate('document.activeElement.id')).toBe('username');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('alice');
    await page.keyboard.press('Tab');
    await page.keyboard.type(VALID_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByText('Signed in as').waitFor();
    // Tabbing reaches every launch button, each named after its workspace.
    const reached = new Set<string>();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      reached.add(String(await page.evaluate('document.activeElement.textContent')).trim());
    }
    expect([...reached]).toEqual(
      expect.arrayContaining(['Launch Terminal', 'Launch Office Suite']),
    );
  });

  it('shows the same message for a wrong password and an unknown user', async () => {
    await h.call('create_user', { target_user: userInput({ username: 'bob' }) });
    await signIn('bob', 'Wr0ng-password');
    const message = await page.getByRole('alert').textContent();
    expect(message).toBe('The username or password is incorrect');
    expect(await page.getByLabel('Username').inputValue()).toBe('bob');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'sign-in-failed');
    await signIn('nobody', 'Wr0ng-password');
    expect(await page.getByRole('alert').textContent()).toBe(message);
  });

  it('locks the account after three failures, even for the right password', async () => {
    await h.call('create_user', { target_user: userInput({ username: 'carol' }) });
    for (let i = 0; i < 3; i++) await signIn('carol', 'Wr0ng-password');
    await signIn('carol', VALID_PASSWORD);
    expect(await page.getByRole('alert').textContent()).toBe('The account is locked');
  });

  it('filters the workspaces with the search box when there are many', async () => {
    const group = await createGroup(h, { name: 'Everyone' });
    await createMember(h, group.group_id, 'dora');
    for (let i = 0; i < 10; i++) {
      const imageId = await createImage(h.db, {
        friendlyName: `Tool ${i}`,
        categories: [i % 2 ? 'Odd' : 'Even'],
      });
      await h.call('add_images_group', {
        target_group: { group_id: group.group_id },
        target_image: { image_id: imageId },
      });
    }
    await signIn('dora', VALID_PASSWORD);
    await page.getByLabel('Search workspaces').fill('odd');
    await page.waitForFunction(
      "document.querySelectorAll('#workspaces > li:not([hidden])').length === 5",
    );
    await page.getByLabel('Search workspaces').fill('no such thing');
    await page.getByText('No workspace matches your search.').waitFor();
    await screenshots(page, 'workspaces-search');
  });

  it('signs in once through a get_login link; the second use is refused', async () => {
    const user = (
      await h.call('create_user', { target_user: userInput({ username: 'erin' }) })
    ).json().user;
    const url = (await h.call('get_login', { target_user: { user_id: user.user_id } })).json()
      .url as string;
    const link = `${origin}${new URL(url).pathname}`;
    await page.goto(link);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshots(page, 'sign-in-link');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Signed in as').waitFor();

    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(link);
    await second.getByRole('button', { name: 'Continue' }).click();
    expect(await second.getByRole('alert').textContent()).toContain(
      'This sign-in link is not valid any more',
    );
    await screenshots(second, 'sign-in-link-used');
    await other.close();
  });

  it('refuses a state-changing request without the CSRF token, and signs out with it', async () => {
    await h.call('create_user', { target_user: userInput({ username: 'frank' }) });
    await signIn('frank', VALID_PASSWORD);
    await page.getByText('Signed in as').waitFor();
    // The browser's own cookies, as a cross-site form would carry them, but no token.
    const forged = await page.request.post(`${origin}/sign-out`, {
      form: { x: '1' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    await page.reload();
    await page.getByText('Signed in as').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await h.db.session.count()).toBe(0);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'ws_session')).toBeUndefined();
  });
});
