import { createSsoRepository } from '../../src/sso';
import { createGroup } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { screenshots, seriousViolations, useBrowserPages } from '../browser/browser-fixture';
import { startTestSamlIdp, type TestSamlIdp } from './saml-idp-fixture';

let h: Harness;
let origin: string;
let idp: TestSamlIdp;

const groupId = async (name: string) =>
  (await h.db.group.findFirstOrThrow({ where: { name }, select: { id: true } })).id;

/** The SAML provider `corp`, with `devs` mapped to the group Developers. */
async function configureProvider() {
  await createGroup(h, { name: 'Developers' });
  const sso = createSsoRepository(h.data);
  const developers = await groupId('Developers');
  await h.data.transaction((tx) =>
    sso.save(
      {
        name: 'corp',
        kind: 'saml',
        displayName: 'Corp',
        enabled: true,
        settings: {
          idp_entity_id: idp.entityId,
          sso_url: idp.ssoUrl,
          slo_url: idp.sloUrl,
          idp_certificate: idp.certificate,
          sp_entity_id: `${origin}/sign-in/sso/corp/metadata`,
          username_attribute: 'uid',
          first_name_attribute: 'givenName',
          last_name_attribute: 'sn',
          groups_attribute: 'groups',
          allow_http: true,
        },
        mappings: [{ value: 'devs', groupId: developers }],
      },
      tx,
    ),
  );
}

beforeAll(async () => {
  h = await createHarness();
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  idp = await startTestSamlIdp(origin, 'corp');
});
afterAll(async () => {
  await idp?.stop();
  await h?.close();
});
beforeEach(async () => {
  await h.reset();
  await idp.mode(null);
  await configureProvider();
  await idp.account('dana', {
    uid: 'dana',
    givenName: 'Dana',
    sn: 'Scully',
    groups: ['devs', 'unmapped'],
  });
});
const pages = useBrowserPages(
  () => origin,
  () => [new URL(idp.ssoUrl).origin],
);
// Every step goes through two servers on a loaded machine: a generous limit for each.
beforeEach(() => pages.context.setDefaultTimeout(60_000));

/** Chromium: "Sign in with Corp", then the provider's own page, which posts its Response back. */
async function signInWithCorp(login = 'dana') {
  const { page } = pages;
  await page.goto(`${origin}/`);
  await page.getByRole('link', { name: 'Sign in with Corp' }).click();
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const userNamed = (username: string) =>
  h.db.user.findUnique({ where: { username }, include: { groups: { include: { group: true } } } });
const ssoEvents = () =>
  h.db.auditEvent.findMany({ where: { channel: 'sso' }, orderBy: { createdAt: 'asc' } });
const refusals = async () =>
  (await ssoEvents())
    .filter((e) => e.result === 'denied')
    .map((e) => ({ code: e.errorCode, target: e.targetId, after: e.after }));

describe('signing in with SAML 2.0 in Chromium', () => {
  it('makes the user with realm saml and the mapped group; the next sign-in takes a group the provider dropped', async () => {
    await signInWithCorp();
    await pages.page.getByText('Signed in as').waitFor({ timeout: 60_000 });
    expect(await seriousViolations(pages.page)).toEqual([]);
    const dana = await userNamed('dana');
    expect(dana).toMatchObject({
      realm: 'saml',
      firstName: 'Dana',
      lastName: 'Scully',
      passwordHash: null,
    });
    const groups = () => userNamed('dana').then((u) => u!.groups.map((g) => g.group.name).sort());
    expect(await groups()).toEqual(['All Users', 'Developers']);
    // A group no mapping names is the platform's business: sign-ins leave it alone.
    await createGroup(h, { name: 'Others' });
    await h.db.userGroup.create({ data: { userId: dana!.id, groupId: await groupId('Others') } });

    await pages.page.getByRole('button', { name: 'Sign out' }).click();
    await pages.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await idp.account('dana', { uid: 'dana', givenName: 'Dana', sn: 'Scully', groups: [] });
    await signInWithCorp();
    await pages.page.getByText('Signed in as').waitFor({ timeout: 60_000 });
    expect(await groups()).toEqual(['All Users', 'Others']);
    const events = await ssoEvents();
    expect(events.map((e) => [e.operation, e.result, e.actorName])).toEqual([
      ['sso_sign_in', 'success', 'dana'],
      ['sso_sign_in', 'success', 'dana'],
    ]);
    expect(await h.db.user.count({ where: { username: 'dana' } })).toBe(1);
  });

  it('offers the provider on the sign-in page and serves SP metadata for it', async () => {
    await pages.page.goto(`${origin}/`);
    await pages.page.getByRole('link', { name: 'Sign in with Corp' }).waitFor();
    await screenshots(pages.page, 'sign-in-with-saml-provider');
    const res = await fetch(`${origin}/sign-in/sso/corp/metadata`);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${origin}/sign-in/sso/corp/metadata"`);
    expect(xml).toContain(`Location="${origin}/sign-in/sso/corp/acs"`);
    expect(xml).toMatch(/WantAssertionsSigned="true"/);
    expect(xml).toContain(`<SingleLogoutService`);
    expect(xml).toContain(`Location="${origin}/sign-in/sso/corp/slo"`);
    expect((await fetch(`${origin}/sign-in/sso/nobody/metadata`)).status).toBe(404);
  });

  it.each([
    ['that is unsigned', 'unsigned', 'SSO_SAML_UNSIGNED', 'not signed'],
    ['signed by another key', 'signature', 'SSO_SAML_SIGNATURE', 'signature'],
    ['for another audience', 'audience', 'SSO_SAML_AUDIENCE', 'another service provider'],
    ['that has expired', 'expired', 'SSO_SAML_EXPIRED', 'has expired'],
  ] as const)(
    'refuses an assertion %s: no user, the reason in the audit trail',
    async (_what, mode, reason, shown) => {
      await idp.mode(mode);
      await signInWithCorp();
      await pages.page.getByText('Sign-in refused').waitFor({ timeout: 60_000 });
      const [event] = await refusals();
      // The event's `after` holds the library's detail: a mismatch shows it.
      expect(`${event.code} ${JSON.stringify(event.after)}`).toMatch(new RegExp(`^${reason} `));
      expect(event.target).toBe('corp');
      expect(await pages.page.locator('main').textContent()).toContain(shown);
      expect(await pages.page.getByText('Signed in as').count()).toBe(0);
      expect(await userNamed('dana')).toBeNull();
    },
  );

  it('refuses an assertion it has seen before, and creates no one', async () => {
    await signInWithCorp();
    await pages.page.getByText('Signed in as').waitFor({ timeout: 60_000 });
    await h.db.user.deleteMany({ where: { username: 'dana' } });
    await pages.context.clearCookies();

    // The provider sends the same signed assertion again, to a fresh sign-in of this browser.
    await idp.mode('replay');
    await signInWithCorp();
    await pages.page.getByText('used before').waitFor({ timeout: 60_000 });
    expect(await userNamed('dana')).toBeNull();
    expect((await refusals()).map((r) => r.code)).toEqual(['SSO_SAML_REPLAYED']);
  });

  it('refuses a Response that answers another browser’s sign-in, or comes with none under way', async () => {
    // Browser A's Response is caught on its way to the platform.
    const acs = `${origin}/sign-in/sso/corp/acs`;
    await pages.page.route(acs, (route) => route.abort());
    const request = pages.page.waitForRequest(acs, { timeout: 60_000 });
    await signInWithCorp();
    const caught = new URLSearchParams((await request).postData() ?? '').get('SAMLResponse');
    expect(caught).toBeTruthy();

    // Browser B started a sign-in of its own, then posts A's Response.
    const other = await pages.browser.newContext();
    const page = await other.newPage();
    await page.route(`${new URL(idp.ssoUrl).origin}/**`, (route) => route.abort());
    await page.goto(`${origin}/sign-in/sso/corp`).catch(() => undefined);
    const posted = await other.request.post(`${origin}/sign-in/sso/corp/acs`, {
      form: { SAMLResponse: caught! },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(401);
    expect(await posted.text()).toContain('no sign-in started in this browser');
    // And with no sign-in under way at all.
    const bare = await pages.browser.newContext();
    const none = await bare.request.post(`${origin}/sign-in/sso/corp/acs`, {
      form: { SAMLResponse: caught! },
      maxRedirects: 0,
    });
    expect(none.status()).toBe(401);
    await Promise.all([other.close(), bare.close()]);

    expect(await userNamed('dana')).toBeNull();
    expect((await refusals()).map((r) => r.code)).toEqual([
      'SSO_SAML_IN_RESPONSE_TO',
      'SSO_STATE_MISMATCH',
    ]);
  });

  it.each(['redirect', 'post'])(
    "ends the user's logins when the provider signs them out (single logout, %s binding)",
    async (binding) => {
      await signInWithCorp();
      await pages.page.getByText('Signed in as').waitFor({ timeout: 60_000 });
      const dana = await userNamed('dana');
      expect(await h.db.loginSession.count({ where: { userId: dana!.id } })).toBe(1);

      await pages.page.goto(
        `${new URL(idp.ssoUrl).origin}/logout?username=dana&binding=${binding}`,
      );
      await pages.page.getByRole('heading', { name: 'Signed out' }).waitFor({ timeout: 60_000 });
      expect(await pages.page.locator('main').textContent()).toContain(
        'Status: urn:oasis:names:tc:SAML:2.0:status:Success; relay state from-the-idp',
      );
      expect(await h.db.loginSession.count({ where: { userId: dana!.id } })).toBe(0);
      expect((await ssoEvents()).at(-1)).toMatchObject({
        operation: 'sso_logout',
        targetId: dana!.id,
      });
      await pages.page.goto(`${origin}/`);
      await pages.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    },
  );

  it.each([
    ['unsigned', 'redirect', 'SSO_SAML_UNSIGNED', 'not signed'],
    ['signed by another key', 'redirect', 'SSO_SAML_SIGNATURE', 'signature'],
    ['unsigned', 'post', 'SSO_SAML_UNSIGNED', 'not signed'],
    ['signed by another key', 'post', 'SSO_SAML_SIGNATURE', 'signature'],
  ] as const)(
    'refuses a LogoutRequest that is %s (%s binding): the user stays signed in',
    async (what, binding, reason, shown) => {
      const mode = what === 'unsigned' ? 'unsigned' : 'signature';
      await signInWithCorp();
      await pages.page.getByText('Signed in as').waitFor({ timeout: 60_000 });
      const dana = await userNamed('dana');
      await idp.mode(mode);
      await pages.page.goto(
        `${new URL(idp.ssoUrl).origin}/logout?username=dana&binding=${binding}`,
      );
      await pages.page.getByText('Sign-in refused').waitFor({ timeout: 60_000 });
      expect(await pages.page.locator('main').textContent()).toContain(shown);
      expect(await h.db.loginSession.count({ where: { userId: dana!.id } })).toBe(1);
      expect((await refusals()).map((r) => r.code)).toEqual([reason]);
    },
  );
});
