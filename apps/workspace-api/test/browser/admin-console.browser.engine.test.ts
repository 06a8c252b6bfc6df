import type { Page } from 'playwright-core';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { VALID_PASSWORD } from '../factories';
import { ADMINISTRATORS, createGroup, createMember } from '../group-factories';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { LONG, screenshots, seriousViolations, useBrowserPages } from './browser-fixture';

jest.setTimeout(4 * LONG);

let w: SessionWorld;
let origin: string;

beforeAll(async () => {
  w = await createSessionWorld();
  origin = await w.h.app.listen({ host: '127.0.0.1', port: 0 });
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1', proxyPort: Number(new URL(origin).port) },
  });
  await createMember(w.h, ADMINISTRATORS, 'root');
  const viewers = await createGroup(w.h, { name: 'Viewers', permissions: ['users.view'] });
  await createMember(w.h, viewers.group_id, 'viewer');
});
afterAll(() => closeWorld(w));
const pages = useBrowserPages(() => origin);

/** Opens a console page signed out, signs in on the page it shows, and lands back on it. */
async function signInAt(path: string, username: string) {
  const { page } = pages;
  await page.goto(`${origin}${path}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(VALID_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}${path}`);
}

/** No serious axe violation, nothing wider than a phone, then the screenshots. */
async function check(page: Page, name: string) {
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  );
  if (overflow > 0) {
    const wide = await page.evaluate(
      "[...document.querySelectorAll('body *')].filter((e) => !e.closest('.table-wrap') && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 8).map((e) => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))",
    );
    throw new Error(`wider than a phone: ${JSON.stringify(wide)}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, name);
}

const notice = (page: Page, text: string) => page.getByRole('status').getByText(text).waitFor();

describe('the console in Chromium', () => {
  it('Users: creates a user with the password rules shown as one types, edits and links them', async () => {
    const { page } = pages;
    await signInAt('/admin/users', 'root');
    await check(page, 'admin-users');
    await page.getByText('Create a user').click();
    await page.getByLabel('Username', { exact: true }).fill('hana');
    await page.getByLabel('Password (optional)').fill('abc');
    const digit = page.locator('#password-rules li[data-rule="digit"]');
    await waitFor(async () => expect(await digit.getAttribute('class')).toBe('unmet'), LONG);
    await page.getByLabel('Password (optional)').fill('Abc-defg-1');
    await waitFor(async () => expect(await digit.getAttribute('class')).toBe('met'), LONG);
    await page.getByLabel('Organization').fill('Harbour');
    await page.getByRole('button', { name: 'Create user' }).click();
    await notice(page, 'The user was created.');
    await page.getByLabel('Locked (too many failed sign-ins)').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await notice(page, 'The changes were saved.');
    const user = await w.h.db.user.findUniqueOrThrow({ where: { username: 'hana' } });
    expect(user).toMatchObject({ organization: 'Harbour', locked: true });
    await check(page, 'admin-user');
    await page.getByRole('button', { name: 'Make a sign-in link' }).click();
    expect(await page.locator('#login-link').textContent()).toContain('/sign-in/link/');
  });

  it('Groups: creates a group with permissions, adds a member and a workspace', async () => {
    const { page } = pages;
    await w.h.call('create_user', { target_user: { username: 'ivy' } });
    await signInAt('/admin/groups', 'root');
    await page.getByText('Create a group').click();
    await page.getByLabel('Name').fill('Support desk');
    await page.getByLabel('Session limit').fill('4');
    await page.getByLabel('sessions.view').check();
    await page.getByRole('button', { name: 'Create group' }).click();
    await notice(page, 'The group was created.');
    await page.getByLabel('Add member by username').fill('ivy');
    await page.getByRole('button', { name: 'Add member' }).click();
    await notice(page, 'The member was added.');
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await notice(page, 'The workspace was added to Allowed Workspaces.');
    const group = await w.h.db.group.findUniqueOrThrow({ where: { name: 'Support desk' } });
    expect(group).toMatchObject({ maxKasmsPerUser: 4, permissions: ['sessions.view'] });
    await check(page, 'admin-group');
    await page.getByRole('link', { name: 'Groups' }).click();
    await check(page, 'admin-groups');
  });

  it('Sessions: keeps a live session alive and destroys it', async () => {
    const { page } = pages;
    const member = await w.member('sam');
    const { kasm_id } = await w.request({ user_id: member.user_id });
    await w.waitForStatus(toUuid(kasm_id), 'running');
    await signInAt('/admin/sessions', 'root');
    const row = page.getByRole('row', { name: /sam/ });
    await row.getByRole('button', { name: 'Keep alive' }).click();
    await notice(page, 'The session was kept alive.');
    await check(page, 'admin-sessions');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('row', { name: /sam/ }).getByRole('button', { name: 'Destroy' }).click();
    await notice(page, 'The session was destroyed.');
    await waitFor(async () => expect(await w.containersOf(kasm_id)).toEqual([]), LONG);
  });

  it('API keys: issues a key with picked permissions, shows its secret once, revokes it', async () => {
    const { page } = pages;
    await signInAt('/admin/api-keys', 'root');
    await page.getByLabel('Name').fill('reports');
    await page.getByLabel('users.view').check();
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = (await page.locator('#issued-secret').textContent()) as string;
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole('link', { name: 'Back to API keys' }).click();
    expect(await page.content()).not.toContain(secret);
    await check(page, 'admin-api-keys');
    page.once('dialog', (dialog) => void dialog.accept());
    await page
      .getByRole('row', { name: /reports/ })
      .getByRole('button', { name: /Revoke/ })
      .click();
    await notice(page, 'The API key was revoked.');
    const key = await w.h.db.apiKey.findFirstOrThrow({ where: { name: 'reports' } });
    expect(key.revokedAt).not.toBeNull();
  });

  it('Audit: finds the console’s revoke by its operation, with who did it and the key before and after', async () => {
    const { page } = pages;
    await signInAt('/admin/audit', 'root');
    await page.getByLabel('Operation').fill('revoke_api_key');
    await page.getByLabel('Channel').selectOption('console');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('status').getByText('1 event matches.').waitFor();
    const row = page.getByRole('row', { name: /revoke_api_key/ });
    expect(await row.textContent()).toMatch(/root[\s\S]*console[\s\S]*success/);
    await row.getByText('Before and after').click();
    expect(await row.locator('pre').last().textContent()).toContain('"name": "reports"');
    await check(page, 'admin-audit');
  });

  it('shows a person only what they may do, and refuses a forged or unpermitted post', async () => {
    const { page } = pages;
    await signInAt('/admin/users', 'viewer');
    const nav = await page.getByRole('navigation', { name: 'Console sections' }).textContent();
    expect(nav?.replace(/\s+/g, ' ').trim()).toBe('Users');
    expect(await page.getByText('Create a user').count()).toBe(0);
    expect((await page.goto(`${origin}/admin/groups`))?.status()).toBe(403);
    const token = await page.evaluate(
      'fetch(\'/admin/users\').then((r) => r.text()).then((t) => /name="_csrf" value="([^"]+)"/.exec(t)[1])',
    );
    const post = (body: string) =>
      page.evaluate(
        `fetch('/admin/users/create', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: ${JSON.stringify(body)} }).then((r) => r.status)`,
      );
    expect(await post('username=forged')).toBe(403);
    expect(await post(`username=unpermitted&_csrf=${encodeURIComponent(String(token))}`)).toBe(403);
    expect(
      await w.h.db.user.count({ where: { username: { in: ['forged', 'unpermitted'] } } }),
    ).toBe(0);
  });

  it('works with the keyboard: the skip link, then the sections', async () => {
    const { page } = pages;
    await signInAt('/admin/users', 'root');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.goto(`${origin}/admin/users`);
    await page
      .getByRole('navigation', { name: 'Console sections' })
      .getByRole('link', { name: 'Groups' })
      .focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/admin/groups`);
  });
});
