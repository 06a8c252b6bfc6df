import { createGroup, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { createImage } from '../image-factories';
import { userInput, VALID_PASSWORD } from '../factories';
import { screenshots, seriousViolations, useBrowserPages } from './browser-fixture';

let h: Harness;
let origin: string;

beforeAll(async () => {
  h = await createHarness({ MAX_FAILED_LOGINS: '3', LOGIN_FAILURE_LIMIT: '0' });
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => h?.close());
beforeEach(() => h.reset());
const pages = useBrowserPages(() => origin);

async function signIn(username: string, password: string) {
  await pages.page.goto(`${origin}/`);
  await pages.page.getByLabel('Username').fill(username);
  await pages.page.getByLabel('Password').fill(password);
  await pages.page.getByRole('button', { name: 'Sign in' }).click();
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
    await pages.page.goto(`${origin}/`);
    expect(await seriousViolations(pages.page)).toEqual([]);
    await screenshots(pages.page, 'sign-in');

    await signIn('alice', VALID_PASSWORD);
    await pages.page.getByText('Signed in as').waitFor();
    const names = await pages.page.locator('#workspaces h3').allTextContents();
    expect(names.sort()).toEqual(['Office Suite', 'Terminal']);
    await pages.page.getByText('A shell in the browser').waitFor();
    await pages.page.getByText('Productivity').waitFor();
    // The icon (the built-in one here) loads from the service.
    await pages.page.waitForFunction(
      "[...document.querySelectorAll('#workspaces img')].every((img) => img.complete && img.naturalWidth > 0)",
    );
    expect(await pages.page.getByText('You have no running sessions.').isVisible()).toBe(true);
    expect(await seriousViolations(pages.page)).toEqual([]);
    await screenshots(pages.page, 'workspaces');
  });

  it('works with the keyboard alone: skip link, fields, sign in, launch buttons', async () => {
    await arrangeWorkspaces();
    await pages.page.goto(`${origin}/`);
    // The username field has the focus; before it come the home link and, first, the skip link.
    expect(await pages.page.evaluate('document.activeElement.id')).toBe('username');
    await pages.page.keyboard.press('Shift+Tab');
    await pages.page.keyboard.press('Shift+Tab');
    expect(await pages.page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await pages.page.keyboard.press('Tab');
    await pages.page.keyboard.press('Tab');
    await pages.page.keyboard.type('alice');
    await pages.page.keyboard.press('Tab');
    await pages.page.keyboard.type(VALID_PASSWORD);
    await pages.page.keyboard.press('Enter');
    await pages.page.getByText('Signed in as').waitFor();
    // Tabbing reaches every launch button, each named after its workspace.
    const reached = new Set<string>();
    for (let i = 0; i < 12; i++) {
      await pages.page.keyboard.press('Tab');
      reached.add(String(await pages.page.evaluate('document.activeElement.textContent')).trim());
    }
    expect([...reached]).toEqual(
      expect.arrayContaining(['Launch Terminal', 'Launch Office Suite']),
    );
  });

  it('shows the same message for a wrong password and an unknown user', async () => {
    await h.call('create_user', { target_user: userInput({ username: 'bob' }) });
    await signIn('bob', 'Wr0ng-password');
    const message = await pages.page.getByRole('alert').textContent();
    expect(message).toBe('The username or password is incorrect');
    expect(await pages.page.getByLabel('Username').inputValue()).toBe('bob');
    expect(await seriousViolations(pages.page)).toEqual([]);
    await screenshots(pages.page, 'sign-in-failed');
    await signIn('nobody', 'Wr0ng-password');
    expect(await pages.page.getByRole('alert').textContent()).toBe(message);
  });

  it('locks the account after three failures from its own address, even for the right password', async () => {
    await h.call('create_user', { target_user: userInput({ username: 'carol' }) });
    // Signed in from this address before: only failures from such addresses lock the account.
    await h.call('authenticate', { username: 'carol', password: VALID_PASSWORD }, null);
    for (let i = 0; i < 3; i++) await signIn('carol', 'Wr0ng-password');
    await signIn('carol', VALID_PASSWORD);
    expect(await pages.page.getByRole('alert').textContent()).toBe('The account is locked');
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
    await pages.page.getByLabel('Search workspaces').fill('odd');
    await pages.page.waitForFunction(
      "document.querySelectorAll('#workspaces > li:not([hidden])').length === 5",
    );
    await pages.page.getByLabel('Search workspaces').fill('no such thing');
    await pages.page.getByText('No workspace matches your search.').waitFor();
    await screenshots(pages.page, 'workspaces-search');
  });

  it('signs in once through a get_login link; the second use is refused', async () => {
    const user = (
      await h.call('create_user', { target_user: userInput({ username: 'erin' }) })
    ).json().user;
    const url = (await h.call('get_login', { target_user: { user_id: user.user_id } })).json()
      .url as string;
    const link = `${origin}${new URL(url).pathname}`;
    await pages.page.goto(link);
    expect(await seriousViolations(pages.page)).toEqual([]);
    await screenshots(pages.page, 'sign-in-link');
    await pages.page.getByRole('button', { name: 'Continue' }).click();
    await pages.page.getByText('Signed in as').waitFor();

    const other = await pages.browser.newContext();
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
    await pages.page.getByText('Signed in as').waitFor();
    // The browser's own cookies, as a cross-site form would carry them, but no token.
    const forged = await pages.page.request.post(`${origin}/sign-out`, {
      form: { x: '1' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    await pages.page.reload();
    await pages.page.getByText('Signed in as').waitFor();

    await pages.page.getByRole('button', { name: 'Sign out' }).click();
    await pages.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await h.db.loginSession.count()).toBe(0);
    const cookies = await pages.context.cookies();
    expect(cookies.find((c) => c.name === 'ws_session')).toBeUndefined();
  });
});
