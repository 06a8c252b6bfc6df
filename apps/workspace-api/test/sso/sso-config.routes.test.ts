import { createServer } from 'node:net';
import { createGroup } from '../group-factories';
import { createHarness, expectFieldErrors, type Harness } from '../harness';
import { UNKNOWN_ID } from '../factories';
import { startTestProvider, type TestProvider } from './oidc-provider-fixture';

let h: Harness;
let idp: TestProvider;
let developers: string;

/** A loopback port nothing listens on: an issuer there cannot be reached. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  h = await createHarness();
  const origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  idp = await startTestProvider(origin, 'acme');
  process.env.TEST_SSO_ROUTES_SECRET = idp.clientSecret;
});
afterAll(async () => {
  delete process.env.TEST_SSO_ROUTES_SECRET;
  await idp?.stop();
  await h?.close();
});
beforeEach(async () => {
  await h.reset();
  developers = (await createGroup(h, { name: 'Developers' })).group_id;
});

const acme = (overrides: Record<string, unknown> = {}) => ({
  name: 'acme',
  kind: 'oidc',
  display_name: 'Acme',
  oidc: {
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: { env: 'TEST_SSO_ROUTES_SECRET' },
    allow_http: true,
  },
  group_mappings: [{ value: 'devs', group_id: developers }],
  ...overrides,
});
const call = (operation: string, provider: object) =>
  h.call(operation, { target_sso_provider: provider });
const events = (operation: string) =>
  h.db.auditEvent.findMany({ where: { operation }, orderBy: { createdAt: 'asc' } });

describe('identity providers over the API', () => {
  it('creates, lists, updates, disables and deletes a provider, each change audited with its snapshots', async () => {
    const created = await call('create_sso_provider', acme());
    expect(created.statusCode).toBe(200);
    expect(created.json().sso_provider).toMatchObject({
      name: 'acme',
      kind: 'oidc',
      enabled: true,
      oidc: { client_secret: { env: 'TEST_SSO_ROUTES_SECRET' } },
      group_mappings: [{ value: 'devs', group_id: developers, group_name: 'Developers' }],
    });
    expect(created.body).not.toContain(idp.clientSecret);
    expect((await h.call('get_sso_providers')).json().sso_providers).toHaveLength(1);

    const updated = await call('update_sso_provider', acme({ enabled: false, group_mappings: [] }));
    expect(updated.json().sso_provider).toMatchObject({ enabled: false, group_mappings: [] });
    expect((await call('delete_sso_provider', { name: 'acme' })).statusCode).toBe(200);
    expect(await h.db.ssoProvider.count()).toBe(0);

    const [create] = await events('create_sso_provider');
    expect(create).toMatchObject({
      result: 'success',
      channel: 'api',
      targetType: 'sso_provider',
      targetId: 'acme',
      before: null,
      after: expect.objectContaining({ display_name: 'Acme' }),
    });
    const [update] = await events('update_sso_provider');
    expect(update.before).toMatchObject({ enabled: true });
    expect(update.after).toMatchObject({ enabled: false });
    const [remove] = await events('delete_sso_provider');
    expect(remove).toMatchObject({ targetId: 'acme', after: null });
    expect(JSON.stringify([create, update, remove])).not.toContain(idp.clientSecret);
  });

  it('refuses a provider with every problem at once (400), a second of the same name (409), an unknown one (404)', async () => {
    const bad = await call(
      'create_sso_provider',
      acme({
        oidc: { issuer: 'ftp://x', client_secret: 'plain', scopes: 'openid' },
        group_mappings: [{ value: 'x', group_id: UNKNOWN_ID }],
      }),
    );
    expectFieldErrors(bad, [
      'oidc.issuer',
      'oidc.client_id',
      'oidc.client_secret',
      'oidc.scopes',
      'group_mappings[0].group_id',
    ]);
    expect(await h.db.ssoProvider.count()).toBe(0);
    expect((await events('create_sso_provider'))[0]).toMatchObject({ result: 'failed' });
    // A kind named like an object's own property (found by the property test: it answered 500).
    for (const kind of ['valueOf', 'constructor', '__proto__']) {
      const odd = await call('create_sso_provider', acme({ kind }));
      expectFieldErrors(odd, ['kind']);
    }
    expect(await h.db.ssoProvider.count()).toBe(0);

    expect((await call('create_sso_provider', acme())).statusCode).toBe(200);
    const twice = await call('create_sso_provider', acme());
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('SSO_PROVIDER_EXISTS');
    const missing = await call('update_sso_provider', acme({ name: 'nobody' }));
    expect(missing.statusCode).toBe(404);
    expect((await call('delete_sso_provider', { name: 'nobody' })).statusCode).toBe(404);
  });

  it('needs settings.modify to change providers and settings.view to list them', async () => {
    const viewer = await h.issueKey(['settings.view']);
    const asViewer = (operation: string, body: object) => h.call(operation, body, viewer);
    expect((await asViewer('get_sso_providers', {})).statusCode).toBe(200);
    for (const operation of ['create_sso_provider', 'test_sso_provider'])
      expect((await asViewer(operation, { target_sso_provider: acme() })).statusCode).toBe(403);
    expect(await h.db.ssoProvider.count()).toBe(0);
  });
});

describe('test_sso_provider: "test this configuration"', () => {
  it('reports every seeded problem at once and saves nothing', async () => {
    const port = await closedPort();
    const res = await call(
      'test_sso_provider',
      acme({
        oidc: {
          issuer: `http://127.0.0.1:${port}/realms/down`,
          allow_http: true,
          client_secret: { env: 'TEST_SSO_VARIABLE_NOBODY_SET' },
          scopes: 'openid',
          clientid: 'typo',
        },
        group_mappings: [
          { value: 'devs', group_id: developers },
          { value: 'ghosts', group_id: UNKNOWN_ID },
        ],
      }),
    );
    expect(res.statusCode).toBe(200);
    const { ok, problems } = res.json() as {
      ok: boolean;
      problems: { field: string; message: string }[];
    };
    expect(ok).toBe(false);
    const byField = Object.fromEntries(problems.map((p) => [p.field, p.message]));
    expect(byField).toEqual({
      'oidc.client_id': 'is required',
      'oidc.clientid': 'is not a known setting',
      'oidc.scopes': expect.stringMatching(/array/i),
      'oidc.client_secret': 'the environment variable TEST_SSO_VARIABLE_NOBODY_SET is not set',
      'oidc.issuer': expect.stringContaining(`discovery at http://127.0.0.1:${port}/realms/down`),
      'group_mappings[1].group_id': `no group has group_id ${UNKNOWN_ID}`,
    });
    expect(await h.db.ssoProvider.count()).toBe(0);
  });

  it("reads the provider's discovery: another issuer, a plain-http issuer without allow_http, an unreadable secret file", async () => {
    const mismatched = await call(
      'test_sso_provider',
      acme({
        oidc: {
          issuer: `${idp.issuer}/`,
          client_id: idp.clientId,
          client_secret: { file: '/nonexistent/acme-secret' },
          allow_http: true,
        },
      }),
    );
    expect(mismatched.json().problems).toEqual([
      {
        field: 'oidc.client_secret',
        message: 'the file /nonexistent/acme-secret cannot be read (ENOENT)',
      },
      {
        field: 'oidc.issuer',
        message: `the discovery document names the issuer "${idp.issuer}", not ${idp.issuer}/`,
      },
    ]);
    const plain = await call(
      'test_sso_provider',
      acme({ oidc: { issuer: idp.issuer, client_id: idp.clientId } }),
    );
    expect(plain.json().problems).toEqual([
      { field: 'oidc.issuer', message: 'must be https (allow_http is for a lab only)' },
    ]);
  });

  it('finds nothing wrong with a working configuration: discovery read from the real provider', async () => {
    const res = await call('test_sso_provider', acme());
    expect(res.json()).toEqual({ ok: true, problems: [] });
    expect(await h.db.ssoProvider.count()).toBe(0);
  });
});
