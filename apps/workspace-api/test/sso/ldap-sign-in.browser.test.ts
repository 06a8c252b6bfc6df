import { createSsoRepository } from '../../src/sso';
import { createGroup } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { userInput, VALID_PASSWORD } from '../factories';
import { LONG, screenshots, seriousViolations, useBrowserPages } from '../browser/browser-fixture';
import { BASE_DN, READER, startTestDirectory, type TestDirectory } from './ldap-directory-fixture';

// A browser on a machine whose every core is busy: generous limits, each wait ends when it holds.
jest.setTimeout(4 * LONG);

let h: Harness;
let origin: string;
let directory: TestDirectory;

const groupId = async (name: string) =>
  (await h.db.group.findFirstOrThrow({ where: { name }, select: { id: true } })).id;

/** The settings of a directory reached over LDAPS, searched as the reader. */
const ldaps = () => ({
  url: directory.ldapsUrl,
  ca_file: directory.caFile,
  bind_dn: READER.dn,
  bind_password: { file: directory.readerPasswordFile },
  base_dn: `ou=people,${BASE_DN}`,
});

/** The directory `corp` ("Example Directory"), with the group devs mapped to Developers. */
async function configureDirectory(settings: object = ldaps()) {
  const sso = createSsoRepository(h.data);
  const developers = await groupId('Developers');
  await h.data.transaction((tx) =>
    sso.save(
      {
        name: 'corp',
        kind: 'ldap',
        displayName: 'Example Directory',
        enabled: true,
        settings,
        mappings: [{ value: 'devs', groupId: developers }],
      },
      tx,
    ),
  );
}

beforeAll(async () => {
  h = await createHarness();
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  directory = await startTestDirectory();
});
afterAll(async () => {
  await directory?.stop();
  await h?.close();
});
beforeEach(async () => {
  await h.reset();
  await createGroup(h, { name: 'Developers' });
  await configureDirectory();
  await setDevs([`uid=dana,ou=people,${BASE_DN}`]);
});
const pages = useBrowserPages(() => origin);
beforeEach(() => pages.context.setDefaultTimeout(LONG));

/** The group devs of the directory has exactly these members (ldapmodify). */
const setDevs = (members: string[]) =>
  directory.modify(
    [
      `dn: cn=devs,ou=groups,${BASE_DN}`,
      'changetype: modify',
      'replace: member',
      ...members.map((m) => `member: ${m}`),
      '',
    ].join('\n'),
  );

/** Chromium: the page's own form, as any user signs in. */
async function signIn(username: string, password: string) {
  const { page } = pages;
  await page.goto(`${origin}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
const signedIn = () => pages.page.getByText('Signed in as').waitFor();

const userNamed = (username: string) =>
  h.db.user.findUnique({ where: { username }, include: { groups: { include: { group: true } } } });
const groupsOf = (username: string) =>
  userNamed(username).then((u) => u!.groups.map((g) => g.group.name).sort());
const ssoEvents = () =>
  h.db.auditEvent.findMany({ where: { channel: 'sso' }, orderBy: { createdAt: 'asc' } });

describe('signing in with an LDAP directory (slapd) in Chromium', () => {
  it('makes the user with realm ldap and the mapped group; leaving the group in the directory takes them out at the next sign-in', async () => {
    await pages.page.goto(`${origin}/`);
    await pages.page.getByText('Accounts of Example Directory sign in here too').waitFor();
    await screenshots(pages.page, 'sign-in-with-directory');
    await signIn('dana', 'dana-pass-1');
    await signedIn();
    expect(await seriousViolations(pages.page)).toEqual([]);
    expect(await userNamed('dana')).toMatchObject({
      realm: 'ldap',
      firstName: 'Dana',
      lastName: 'Scully',
      phone: '+1 555 0100',
      organization: 'Example Corp',
      passwordHash: null,
    });
    expect(await groupsOf('dana')).toEqual(['All Users', 'Developers']);
    // A group no mapping names is the platform's business: sign-ins leave it alone.
    await createGroup(h, { name: 'Others' });
    const dana = await userNamed('dana');
    await h.db.userGroup.create({ data: { userId: dana!.id, groupId: await groupId('Others') } });

    await pages.page.getByRole('button', { name: 'Sign out' }).click();
    await pages.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await setDevs([`uid=eve,ou=people,${BASE_DN}`]);
    await signIn('Dana', 'dana-pass-1');
    await signedIn();
    expect(await groupsOf('dana')).toEqual(['All Users', 'Others']);
    const events = await ssoEvents();
    expect(events.map((e) => [e.operation, e.result, e.actorName])).toEqual([
      ['sso_sign_in', 'success', 'dana'],
      ['sso_sign_in', 'success', 'dana'],
    ]);
    expect(await h.db.user.count({ where: { realm: 'ldap' } })).toBe(1);
  });

  it('signs in over StartTLS, and refuses a directory configured without TLS', async () => {
    await configureDirectory({ ...ldaps(), url: directory.ldapUrl });
    await signIn('eve', 'eve-pass-1');
    await signedIn();
    expect(await userNamed('eve')).toMatchObject({ realm: 'ldap', lastName: 'Moneypenny' });
    expect(await groupsOf('eve')).toEqual(['All Users']);

    await pages.context.clearCookies();
    await configureDirectory({ ...ldaps(), url: directory.ldapUrl, start_tls: false });
    await signIn('dana', 'dana-pass-1');
    await pages.page.getByText('configured without TLS').waitFor();
    expect(await userNamed('dana')).toBeNull();
    expect((await ssoEvents()).map((e) => e.errorCode)).toEqual([null, 'SSO_DIRECTORY_INSECURE']);
  });

  it.each([
    ['a wrong password', 'dana', 'not-her-password', 'SSO_CREDENTIALS', 'dana'],
    [
      'a filter injection in the username',
      '*)(uid=*',
      'dana-pass-1',
      'SSO_USERNAME_INJECTION',
      null,
    ],
    ['a name the directory does not know', 'nobody', 'dana-pass-1', 'SSO_USER_NOT_FOUND', null],
  ])(
    'refuses %s: no user, the form says so, the reason in the audit trail',
    async (_, username, password, reason, existing) => {
      await signIn(username, password);
      await pages.page.getByText('The username or password is incorrect').waitFor();
      expect(await pages.page.getByText('Signed in as').count()).toBe(0);
      expect(await h.db.user.count({ where: { realm: 'ldap' } })).toBe(0);
      if (existing) expect(await userNamed(existing)).toBeNull();
      const events = await ssoEvents();
      expect(
        events.map(({ operation, result, errorCode, targetId }) => ({
          operation,
          result,
          errorCode,
          targetId,
        })),
      ).toEqual([
        { operation: 'sso_sign_in', result: 'denied', errorCode: reason, targetId: 'corp' },
      ]);
      expect(events[0].after).toMatchObject({ username });
    },
  );

  it('refuses while the directory cannot be reached, with the reason in the audit trail', async () => {
    await configureDirectory({ ...ldaps(), url: 'ldaps://127.0.0.1:1', timeout_ms: 2000 });
    await signIn('dana', 'dana-pass-1');
    await pages.page.getByText('the directory could not be reached').waitFor();
    expect(await userNamed('dana')).toBeNull();
    expect((await ssoEvents()).map((e) => e.errorCode)).toEqual(['SSO_DIRECTORY_UNREACHABLE']);
  });

  it('refuses a directory whose certificate it cannot trust (the certificate is checked)', async () => {
    const { ca_file: _, ...untrusted } = ldaps();
    await configureDirectory(untrusted);
    await signIn('dana', 'dana-pass-1');
    await pages.page.getByText('the directory could not be reached').waitFor();
    expect(await userNamed('dana')).toBeNull();
    const [event] = await ssoEvents();
    expect(event.errorCode).toBe('SSO_DIRECTORY_UNREACHABLE');
    expect(JSON.stringify(event.after)).toMatch(/certificate/i);
  });

  it('signs local users in locally, even when the directory knows their name', async () => {
    await h.call('create_user', { target_user: userInput({ username: 'dana' }) });
    await signIn('dana', 'dana-pass-1');
    await pages.page.getByText('The username or password is incorrect').waitFor();
    await signIn('dana', VALID_PASSWORD);
    await signedIn();
    expect((await userNamed('dana'))!.realm).toBe('local');
    expect(await ssoEvents()).toEqual([]);
  });
});
