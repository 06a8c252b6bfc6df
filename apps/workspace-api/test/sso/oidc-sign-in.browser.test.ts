import { createSsoRepository } from '../../src/sso';
import { createGroup } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { userInput, VALID_PASSWORD } from '../factories';
import { screenshots, seriousViolations, useBrowserPages } from '../browser/browser-fixture';
import { startTestProvider, type TestProvider } from './oidc-provider-fixture';

let h: Harness;
let origin: string;
let idp: TestProvider;

const groupId = async (name: string) =>
  (await h.db.group.findFirstOrThrow({ where: { name }, select: { id: true } })).id;

/** The provider `acme`, with `devs` mapped to the group Developers. */
async function configureProvider() {
  await createGroup(h, { name: 'Developers' });
  const sso = createSsoRepository(h.data);
  const developers = await groupId('Developers');
  await h.data.transaction((tx) =>
    sso.save(
      {
        name: 'acme',
        kind: 'oidc',
        displayName: 'Acme',
        enabled: true,
        settings: {
          issuer: idp.issuer,
          client_id: idp.clientId,
          client_secret: { env: 'TEST_ACME_OIDC_SECRET' },
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
  idp = await startTestProvider(origin, 'acme');
  process.env.TEST_ACME_OIDC_SECRET = idp.clientSecret;
});
afterAll(async () => {
  await idp?.stop();
  await h?.close();
});
beforeEach(async () => {
  await h.reset();
  await idp.tamper(null);
  await configureProvider();
  await idp.account('dana', {
    preferred_username: 'dana',
    given_name: 'Dana',
    family_name: 'Scully',
    groups: ['devs', 'unmapped'],
  });
});
const pages = useBrowserPages(
  () => origin,
  () => [idp.issuer],
);

/** Chromium: "Sign in with Acme", then the provider's own page. */
async function signInWithAcme(login = 'dana') {
  const { page } = pages;
  await page.goto(`${origin}/`);
  await page.getByRole('link', { name: 'Sign in with Acme' }).click();
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const userNamed = (username: string) =>
  h.db.user.findUnique({ where: { username }, include: { groups: { include: { group: true } } } });
const ssoEvents = () =>
  h.db.auditEvent.findMany({ where: { channel: 'sso' }, orderBy: { createdAt: 'asc' } });

describe('signing in with OpenID Connect in Chromium', () => {
  it('makes the user with realm oidc and the mapped group; the next sign-in takes a group the provider dropped', async () => {
    await signInWithAcme();
    await pages.page.getByText('Signed in as').waitFor();
    expect(await seriousViolations(pages.page)).toEqual([]);
    const dana = await userNamed('dana');
    expect(dana).toMatchObject({
      realm: 'oidc',
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
    // Signed out at the provider too, so that it asks again.
    await pages.context.clearCookies();
    await idp.account('dana', { preferred_username: 'dana', given_name: 'Dana', groups: [] });
    await signInWithAcme();
    await pages.page.getByText('Signed in as').waitFor();
    expect(await groups()).toEqual(['All Users', 'Others']);
    const events = await ssoEvents();
    expect(events.map((e) => [e.operation, e.result, e.actorName])).toEqual([
      ['sso_sign_in', 'success', 'dana'],
      ['sso_sign_in', 'success', 'dana'],
    ]);
    expect(await h.db.user.count({ where: { username: 'dana' } })).toBe(1);
  });

  it('offers the provider on the sign-in page, and a get_login link works for its users', async () => {
    await pages.page.goto(`${origin}/`);
    await screenshots(pages.page, 'sign-in-with-provider');
    expect(await seriousViolations(pages.page)).toEqual([]);
    await signInWithAcme();
    await pages.page.getByText('Signed in as').waitFor();
    const dana = await userNamed('dana');
    const url = (await h.call('get_login', { target_user: { user_id: dana!.id } })).json().url;
    const other = await pages.browser.newContext();
    const second = await other.newPage();
    await second.goto(`${origin}${new URL(url).pathname}`);
    await second.getByRole('button', { name: 'Continue' }).click();
    await second.getByText('Signed in as').waitFor();
    await other.close();
  });

  it.each([
    ['aud', 'SSO_ID_TOKEN_AUDIENCE', 'for another client'],
    ['iss', 'SSO_ID_TOKEN_ISSUER', 'from another issuer'],
    ['exp', 'SSO_ID_TOKEN_EXPIRED', 'has expired'],
    ['nonce', 'SSO_ID_TOKEN_NONCE', 'nonce'],
    ['signature', 'SSO_ID_TOKEN_SIGNATURE', 'signature'],
  ] as const)(
    'refuses an ID token with a wrong %s: no user, the reason in the audit trail',
    async (mode, reason, shown) => {
      await idp.tamper(mode);
      await signInWithAcme();
      await pages.page
        .getByText('Sign-in refused')
        .waitFor({ timeout: 10_000 })
        .catch(() => undefined);
      const [event] = (await ssoEvents()).map(
        ({ errorCode, after, operation, result, targetId }) => ({
          errorCode,
          operation,
          result,
          targetId,
          after,
        }),
      );
      // The event's `after` holds the detail: a mismatch shows it.
      expect(`${event.errorCode} ${JSON.stringify(event.after)}`).toMatch(
        new RegExp(`^${reason} `),
      );
      expect(event).toMatchObject({ operation: 'sso_sign_in', result: 'denied', targetId: 'acme' });
      expect(await pages.page.locator('main').textContent()).toContain(shown);
      expect(await pages.page.getByText('Signed in as').count()).toBe(0);
      expect(await userNamed('dana')).toBeNull();
    },
  );

  it('refuses a replayed callback and a replayed code, and creates no one', async () => {
    let callback = '';
    pages.page.on('request', (request) => {
      if (request.url().startsWith(`${origin}/sign-in/sso/acme/callback?`))
        callback ||= request.url();
    });
    await signInWithAcme();
    await pages.page.getByText('Signed in as').waitFor();
    await h.db.user.deleteMany({ where: { username: 'dana' } });

    // The same answer again: this browser has no sign-in under way any more.
    await pages.page.goto(callback);
    await pages.page.getByText('start again').waitFor();

    // The code with a fresh sign-in's state: the provider refuses the spent code.
    const other = await pages.browser.newContext();
    const page = await other.newPage();
    await page.route(`${idp.issuer}/**`, (route) => route.abort());
    await page.goto(`${origin}/sign-in/sso/acme`).catch(() => undefined);
    const pending = (await other.cookies()).find((c) => c.name === 'ws_sso')!;
    const state = JSON.parse(Buffer.from(pending.value, 'base64url').toString()).state;
    const replay = new URL(callback);
    replay.searchParams.set('state', state);
    await page.goto(replay.href);
    await page.getByText('authorization code').waitFor();
    await other.close();

    expect(await userNamed('dana')).toBeNull();
    const refusals = (await ssoEvents()).filter((e) => e.result === 'denied');
    expect(refusals.map((e) => e.errorCode)).toEqual(['SSO_STATE_MISMATCH', 'SSO_CODE_REFUSED']);
  });

  it('refuses a username a local account holds', async () => {
    await h.call('create_user', { target_user: userInput({ username: 'dana' }) });
    await signInWithAcme();
    await pages.page.getByText('an account of that username exists').waitFor();
    expect((await userNamed('dana'))!.realm).toBe('local');
    expect((await ssoEvents()).map((e) => e.errorCode)).toEqual(['SSO_USERNAME_TAKEN']);
    // Local sign-in still works for local users.
    await pages.page.goto(`${origin}/`);
    await pages.page.getByLabel('Username').fill('dana');
    await pages.page.getByLabel('Password').fill(VALID_PASSWORD);
    await pages.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await pages.page.getByText('Signed in as').waitFor();
  });

  it("ends the user's logins when the provider signs them out (back-channel logout)", async () => {
    await signInWithAcme();
    await pages.page.getByText('Signed in as').waitFor();
    const dana = await userNamed('dana');
    expect(await h.db.loginSession.count({ where: { userId: dana!.id } })).toBe(1);
    await idp.logout('dana');
    expect(await h.db.loginSession.count({ where: { userId: dana!.id } })).toBe(0);
    await pages.page.reload();
    await pages.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const events = await ssoEvents();
    expect(events.at(-1)).toMatchObject({ operation: 'sso_logout', targetId: dana!.id });
  });
});
