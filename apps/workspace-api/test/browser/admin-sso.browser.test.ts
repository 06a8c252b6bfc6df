import { ADMINISTRATORS, createGroup, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { startTestProvider, type TestProvider } from '../sso/oidc-provider-fixture';
import { checkPage, notice, signInAt } from './admin-pages';
import { LONG, useBrowserPages } from './browser-fixture';

jest.setTimeout(4 * LONG);

let h: Harness;
let idp: TestProvider;
let origin: string;

beforeAll(async () => {
  h = await createHarness();
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  idp = await startTestProvider(origin, 'acme');
  process.env.TEST_CONSOLE_OIDC_SECRET = idp.clientSecret;
  await createMember(h, ADMINISTRATORS, 'root');
  await createGroup(h, { name: 'Developers' });
});
afterAll(async () => {
  delete process.env.TEST_CONSOLE_OIDC_SECRET;
  await idp?.stop();
  await h?.close();
});
const pages = useBrowserPages(() => origin);

const consoleEvents = () =>
  h.db.auditEvent.findMany({
    where: { channel: 'console', targetType: 'sso_provider' },
    orderBy: { createdAt: 'asc' },
  });

describe('the console in Chromium: Sign-in providers', () => {
  it('adds a provider after testing its configuration, edits, disables and deletes it, each change audited', async () => {
    const { page } = pages;
    await signInAt(pages, origin, '/admin/sso', 'root');
    await checkPage(page, 'admin-sso-list');
    await page.getByLabel('Kind').selectOption('oidc');
    await page.getByRole('button', { name: 'Add a provider' }).click();
    await page.getByRole('heading', { name: 'New oidc provider' }).waitFor();

    await page.getByLabel('Name').fill('acme');
    await page.getByLabel('Button text').fill('Acme');
    await page
      .getByLabel('oidc settings (YAML)')
      .fill(
        [
          `issuer: ${idp.issuer}`,
          'client_secret: {env: TEST_CONSOLE_OIDC_SECRET_TYPO}',
          'allow_http: true',
        ].join('\n'),
      );
    await page.getByLabel('Group mappings').fill('devs = Developers\nghosts = Nobody');
    await page.getByRole('button', { name: 'Test this configuration' }).click();
    const result = page.locator('#sso-test-result');
    await result.waitFor();
    expect(await result.getAttribute('role')).toBe('alert');
    const text = await result.textContent();
    expect(text).toContain('3 problem(s)');
    expect(text).toContain('oidc.client_id: is required');
    expect(text).toContain('the environment variable TEST_CONSOLE_OIDC_SECRET_TYPO is not set');
    expect(text).toContain('group_mappings[1].group: no group is named "Nobody"');
    // What was typed stays, for fixing.
    expect(await page.getByLabel('Group mappings').inputValue()).toContain('ghosts = Nobody');
    await checkPage(page, 'admin-sso-test-problems');
    expect(await h.db.ssoProvider.count()).toBe(0);

    await page
      .getByLabel('oidc settings (YAML)')
      .fill(
        [
          `issuer: ${idp.issuer}`,
          `client_id: ${idp.clientId}`,
          'client_secret: {env: TEST_CONSOLE_OIDC_SECRET}',
          'allow_http: true',
        ].join('\n'),
      );
    await page.getByLabel('Group mappings').fill('devs = Developers');
    await page.getByRole('button', { name: 'Test this configuration' }).click();
    await page.getByRole('status').getByText('No problem found').waitFor();
    await page.getByRole('button', { name: 'Add provider' }).click();
    await notice(page, 'The provider was added.');
    expect(await page.getByRole('cell', { name: 'devs → Developers' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Disable acme' }).click();
    await notice(page, 'The provider was disabled.');
    expect(await h.db.ssoProvider.findUniqueOrThrow({ where: { name: 'acme' } })).toMatchObject({
      enabled: false,
    });
    expect(await h.db.ssoGroupMapping.count()).toBe(1);

    await page.getByRole('link', { name: 'acme' }).click();
    await page.getByRole('heading', { name: 'Provider acme' }).waitFor();
    await checkPage(page, 'admin-sso-edit');
    await page.getByLabel('Button text').fill('Acme Corp');
    await page.getByLabel('Enabled (offered on the sign-in page)').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await notice(page, 'The provider was saved.');
    const saved = await h.db.ssoProvider.findUniqueOrThrow({ where: { name: 'acme' } });
    expect(saved).toMatchObject({ displayName: 'Acme Corp', enabled: true });
    expect(JSON.stringify(saved.settings)).not.toContain(idp.clientSecret);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete acme' }).click();
    await notice(page, 'The provider was deleted.');
    expect(await h.db.ssoProvider.count()).toBe(0);

    expect((await consoleEvents()).map((e) => [e.operation, e.result, e.actorName])).toEqual([
      ['create_sso_provider', 'success', 'root'],
      ['disable_sso_provider', 'success', 'root'],
      ['update_sso_provider', 'success', 'root'],
      ['delete_sso_provider', 'success', 'root'],
    ]);
  });
});
