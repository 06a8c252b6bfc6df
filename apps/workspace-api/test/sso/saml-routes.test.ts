import { inflateRawSync } from 'node:zlib';
import { createSsoRepository } from '../../src/sso';
import { createHarness, type Harness } from '../harness';

const PUBLIC = 'https://desk.example.org';
const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBdGVzdA==\n-----END CERTIFICATE-----\n';
let h: Harness;

async function saveProvider(name: string, kind: string, settings: object, enabled = true) {
  const sso = createSsoRepository(h.data);
  await h.data.transaction((tx) =>
    sso.save({ name, kind, displayName: name, enabled, settings, mappings: [] }, tx),
  );
}
const samlSettings = (extra: object = {}) => ({
  idp_entity_id: 'https://id.example.org/idp',
  sso_url: 'https://id.example.org/sso',
  idp_certificate: CERTIFICATE,
  sp_entity_id: `${PUBLIC}/sign-in/sso/corp/metadata`,
  ...extra,
});
const refusalCodes = async () =>
  (await h.db.auditEvent.findMany({ where: { channel: 'sso' }, orderBy: { createdAt: 'asc' } }))
    .filter((e) => e.result === 'denied')
    .map((e) => e.errorCode);

beforeAll(async () => {
  h = await createHarness({ PUBLIC_URL: PUBLIC });
});
afterAll(() => h?.close());
beforeEach(async () => {
  await h.reset();
  await h.db.ssoProvider.deleteMany();
  await h.db.auditEvent.deleteMany({ where: { channel: 'sso' } });
  await saveProvider('corp', 'saml', samlSettings());
});

async function startSignIn() {
  const res = await h.inject({
    method: 'GET',
    url: '/sign-in/sso/corp?next=/admin',
    headers: { host: new URL(PUBLIC).host },
  });
  const cookie = res.cookies.find((c) => c.name === '__Host-ws_sso');
  return { res, cookie };
}

describe('SAML routes', () => {
  it('sends an AuthnRequest by redirect and keeps its ID in a SameSite=None cookie over TLS', async () => {
    const { res, cookie } = await startSignIn();
    expect(res.statusCode).toBe(303);
    const location = new URL(res.headers.location as string);
    expect(location.origin + location.pathname).toBe('https://id.example.org/sso');
    const xml = inflateRawSync(
      Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64'),
    ).toString();
    const pending = JSON.parse(Buffer.from(cookie!.value, 'base64url').toString());
    expect(pending).toEqual({ provider: 'corp', requestId: expect.any(String), next: '/admin' });
    expect(xml).toContain(`ID="${pending.requestId}"`);
    expect(xml).toContain(`AssertionConsumerServiceURL="${PUBLIC}/sign-in/sso/corp/acs"`);
    expect(xml).toContain(`${PUBLIC}/sign-in/sso/corp/metadata</saml:Issuer>`);
    // The provider's page posts the Response cross-site: a Lax cookie would stay behind.
    expect(cookie).toMatchObject({ sameSite: 'None', secure: true, httpOnly: true, path: '/' });
  });

  it('refuses a plain-http SSO URL unless allow_http says so, and audits it', async () => {
    await saveProvider('corp', 'saml', samlSettings({ sso_url: 'http://id.example.org/sso' }));
    const { res } = await startSignIn();
    expect(res.statusCode).toBe(401);
    expect(await refusalCodes()).toEqual(['SSO_PROVIDER_ERROR']);
  });

  it('answers 400 to a post without a Response, 401 to one that is not SAML', async () => {
    const { cookie } = await startSignIn();
    const post = (payload: Record<string, string>) =>
      h.inject({
        method: 'POST',
        url: '/sign-in/sso/corp/acs',
        headers: { cookie: `__Host-ws_sso=${cookie!.value}` },
        payload,
      });
    expect((await post({ RelayState: 'x' })).statusCode).toBe(400);
    const garbage = await post({ SAMLResponse: Buffer.from('<not-saml/>').toString('base64') });
    expect(garbage.statusCode).toBe(401);
    expect((await post({ SAMLResponse: '!!!' })).statusCode).toBe(401);
    expect(await refusalCodes()).toEqual(['SSO_SAML_INVALID', 'SSO_SAML_INVALID']);
    expect(await h.db.user.count({ where: { realm: 'saml' } })).toBe(0);
  });

  it('answers 404 for metadata and sign-in of a disabled, unknown or other-kind provider', async () => {
    await saveProvider('off', 'saml', samlSettings(), false);
    await saveProvider('bad', 'saml', { sso_url: 'https://id.example.org/sso' });
    for (const name of ['off', 'bad', 'nobody']) {
      expect((await h.inject({ url: `/sign-in/sso/${name}/metadata` })).statusCode).toBe(404);
      expect((await h.inject({ url: `/sign-in/sso/${name}` })).statusCode).toBe(404);
    }
    const metadata = await h.inject({ url: '/sign-in/sso/corp/metadata' });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.body).toContain(`entityID="${PUBLIC}/sign-in/sso/corp/metadata"`);
  });

  it('answers single logout only where slo_url is set, and bad LogoutRequests with 4xx', async () => {
    const slo = (url: string) => h.inject({ url: `/sign-in/sso/corp/slo${url}` });
    expect((await slo('?SAMLRequest=x')).statusCode).toBe(404);
    await saveProvider('corp', 'saml', samlSettings({ slo_url: 'https://id.example.org/slo' }));
    expect((await slo('')).statusCode).toBe(400);
    expect((await slo('?SAMLRequest=x')).statusCode).toBe(401);
    expect((await slo('?SAMLRequest=x&SigAlg=y&Signature=z')).statusCode).toBe(401);
    const posted = await h.inject({
      method: 'POST',
      url: '/sign-in/sso/corp/slo',
      payload: { SAMLRequest: Buffer.from('<nope/>').toString('base64') },
    });
    expect(posted.statusCode).toBe(401);
    expect(await refusalCodes()).toEqual([
      'SSO_SAML_UNSIGNED',
      'SSO_SAML_INVALID',
      'SSO_SAML_UNSIGNED',
    ]);
  });
});
