import { VALID_PASSWORD, userActions } from '../factories';
import { createHarness, type Harness } from '../harness';
import { signIn, webClient } from './web-client';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    MAX_FAILED_LOGINS: '3',
    LOGIN_FAILURE_LIMIT: '0',
    LOGIN_LINK_TTL_SECONDS: '60',
  });
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const { createUser } = userActions(() => h);
const linkPath = (url: string) => new URL(url).pathname;
async function getLogin(userId: string) {
  const res = await h.call('get_login', { target_user: { user_id: userId } });
  expect(res.statusCode).toBe(200);
  return res.json().url as string;
}
async function useLink(url: string) {
  const client = webClient(h);
  const page = await client.get(linkPath(url));
  expect(page.statusCode).toBe(200);
  const token = decodeURIComponent(linkPath(url).split('/').pop() ?? '');
  return { client, res: await client.post('/sign-in/link', { token, _csrf: client.csrf() }) };
}

describe('the root page', () => {
  it('shows the sign-in form with a CSP that forbids inline script, and no API key', async () => {
    const res = await webClient(h).get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.body).toContain('<form method="post" action="/sign-in"');
    expect(res.body).not.toMatch(/<script>|api_key/);
  });

  it("serves the page's files with their type and cache headers, and its 404 page for others", async () => {
    const script = await webClient(h).get('/assets/page.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
    });
    const icon = await webClient(h).get('/assets/workspace.svg');
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    const missing = await webClient(h).get('/assets/page.ts');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('No such file');
  });

  it('signs in with an HttpOnly, SameSite cookie backed by a hashed login session', async () => {
    const user = await createUser({ username: 'alice' });
    const client = webClient(h);
    const res = await signIn(client, 'Alice', VALID_PASSWORD);
    expect(res.statusCode).toBe(303);
    const cookie = (
      res.cookies as {
        name: string;
        value: string;
        httpOnly?: boolean;
        sameSite?: string;
        secure?: boolean;
      }[]
    ).find((c) => c.name === 'ws_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(cookie?.secure).toBeFalsy();
    const session = await h.db.loginSession.findFirstOrThrow({ where: { userId: user.user_id } });
    expect(session.tokenHash).not.toBe(cookie?.value);
    expect((await client.get('/')).body).toContain('Signed in as <strong>alice</strong>');
  });

  it('names the cookies __Host-… over TLS: Secure, Path=/, no Domain; the plain names count for nothing there', async () => {
    await createUser({ username: 'tls' });
    const tls = await createHarness({ TRUST_PROXY: 'true' }, { database: h.data });
    try {
      const client = webClient({ ...h, inject: tls.inject } as Harness, {
        'x-forwarded-proto': 'https',
      });
      type Cookie = {
        name: string;
        value: string;
        secure?: boolean;
        path?: string;
        domain?: string;
      };
      const page = await client.get('/');
      const form = (page.cookies as Cookie[]).find((c) => c.name === '__Host-ws_form');
      expect(form).toMatchObject({ secure: true, path: '/' });
      expect(form?.domain).toBeUndefined();
      const res = await client.post('/sign-in', {
        username: 'tls',
        password: VALID_PASSWORD,
        _csrf: client.csrf(),
      });
      expect(res.statusCode).toBe(303);
      const names = (res.cookies as Cookie[]).map((c) => c.name);
      expect(names).not.toContain('ws_session');
      const cookie = (res.cookies as Cookie[]).find((c) => c.name === '__Host-ws_session');
      expect(cookie).toMatchObject({ secure: true, path: '/', httpOnly: true });
      expect(cookie?.domain).toBeUndefined();
      expect((await client.get('/')).body).toContain('Signed in as <strong>tls</strong>');
      const planted = await tls.inject({
        method: 'GET',
        url: '/',
        headers: { 'x-forwarded-proto': 'https', cookie: `ws_session=${cookie?.value}` },
      });
      expect(planted.body).toContain('action="/sign-in"');
    } finally {
      await tls.close();
    }
  });

  it('keeps the cookies __Host-… and Secure and sign-in links https:// when PUBLIC_URL is https, though the ingress’s hop is plain HTTP and TRUST_PROXY is unset', async () => {
    const user = await createUser({ username: 'ingress' });
    const behind = await createHarness(
      { PUBLIC_URL: 'https://desk.example.com' },
      { database: h.data },
    );
    try {
      const client = webClient({ ...h, inject: behind.inject } as Harness);
      const page = await client.get('/');
      expect(page.cookies.map((c) => c.name)).toContain('__Host-ws_form');
      const res = await client.post('/sign-in', {
        username: 'ingress',
        password: VALID_PASSWORD,
        _csrf: client.csrf(),
      });
      expect(res.statusCode).toBe(303);
      const cookie = (res.cookies as { name: string; secure?: boolean }[]).find(
        (c) => c.name === '__Host-ws_session',
      );
      expect(cookie?.secure).toBe(true);
      const link = await behind.inject({
        method: 'POST',
        url: '/api/public/get_login',
        payload: { ...h.admin, target_user: { user_id: user.user_id } },
      });
      expect(link.json().url).toMatch(/^https:\/\//);
    } finally {
      await behind.close();
    }
  });

  it('answers a wrong password and an unknown user with the same message', async () => {
    await createUser({ username: 'bob' });
    const wrong = await signIn(webClient(h), 'bob', 'Wr0ng-password');
    const unknown = await signIn(webClient(h), 'nobody', 'Wr0ng-password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toContain('The username or password is incorrect');
    expect(unknown.body).toContain('The username or password is incorrect');
  });

  it('locks the account after the configured number of failures from an address it signed in from', async () => {
    await createUser({ username: 'carol' });
    await signIn(webClient(h), 'carol', VALID_PASSWORD);
    for (let i = 0; i < 3; i++) await signIn(webClient(h), 'carol', 'Wr0ng-password');
    const res = await signIn(webClient(h), 'carol', VALID_PASSWORD);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('The account is locked');
  });

  it('refuses a sign-in form without its CSRF token', async () => {
    await createUser({ username: 'dave' });
    const client = webClient(h);
    await client.get('/');
    const res = await client.post('/sign-in', { username: 'dave', password: VALID_PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('reload the page');
    expect(await h.db.loginSession.count()).toBe(0);
  });

  it('refuses a signed-in state-changing request without the CSRF token', async () => {
    await createUser({ username: 'erin' });
    const client = webClient(h);
    await signIn(client, 'erin', VALID_PASSWORD);
    const res = await client.post('/sign-out', {});
    expect(res.statusCode).toBe(403);
    expect(await h.db.loginSession.count()).toBe(1);
    const other = await client.post('/sign-out', { _csrf: 'x'.repeat(43) });
    expect(other.statusCode).toBe(403);
  });

  it('refuses a sign-out without CSRF proof also when the login session is no longer live, and keeps the cookie', async () => {
    await createUser({ username: 'stale' });
    const client = webClient(h);
    await signIn(client, 'stale', VALID_PASSWORD);
    await h.db.loginSession.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await client.post('/sign-out', {});
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('reload the page');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await h.db.loginSession.count()).toBe(1);
    const anonymous = await webClient(h).post('/sign-out', {});
    expect(anonymous.statusCode).toBe(403);
  });

  it("signs out from a page whose login session has expired, with that page's token", async () => {
    await createUser({ username: 'expired' });
    const client = webClient(h);
    await signIn(client, 'expired', VALID_PASSWORD);
    await client.get('/');
    const csrf = client.csrf();
    await h.db.loginSession.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await client.post('/sign-out', { _csrf: csrf });
    expect(res.statusCode).toBe(303);
    expect(client.cookies.has('ws_session')).toBe(false);
    expect(await h.db.loginSession.count()).toBe(0);
  });

  it('signs out: the login session row is gone and the old cookie no longer works', async () => {
    await createUser({ username: 'frank' });
    const client = webClient(h);
    await signIn(client, 'frank', VALID_PASSWORD);
    const old = client.cookies.get('ws_session') ?? '';
    await client.get('/');
    const res = await client.post('/sign-out', { _csrf: client.csrf() });
    expect(res.statusCode).toBe(303);
    expect(await h.db.loginSession.count()).toBe(0);
    const replay = await h.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: `ws_session=${old}` },
    });
    expect(replay.body).toContain('action="/sign-in"');
  });

  it('ends browser sessions on a password change and on logout_user', async () => {
    const user = await createUser({ username: 'gina' });
    const a = webClient(h);
    await signIn(a, 'gina', VALID_PASSWORD);
    await h.call('update_user', {
      target_user: { user_id: user.user_id, password: 'N3w-password!' },
    });
    expect((await a.get('/')).body).toContain('action="/sign-in"');
    const b = webClient(h);
    await signIn(b, 'gina', 'N3w-password!');
    expect((await b.get('/')).body).toContain('Signed in as');
    await h.call('logout_user', { target_user: { user_id: user.user_id } });
    expect((await b.get('/')).body).toContain('action="/sign-in"');
  });

  it('throttles failed sign-ins per client address with the login throttle', async () => {
    const throttled = await createHarness({ LOGIN_FAILURE_LIMIT: '2' });
    try {
      const results = [];
      for (let i = 0; i < 3; i++)
        results.push(await signIn(webClient(throttled), 'nobody', 'Wr0ng-password'));
      expect(results.map((r) => r.statusCode)).toEqual([401, 401, 429]);
      expect(results[2].headers['retry-after']).toEqual(expect.any(String));
    } finally {
      await throttled.close();
    }
  });
});

describe('get_login', () => {
  it('answers a link whose token is stored only as its SHA-256, valid once', async () => {
    const user = await createUser({ username: 'hank' });
    const url = await getLogin(user.user_id);
    expect(url).toMatch(/^http:\/\/localhost(:\d+)?\/sign-in\/link\/[A-Za-z0-9_-]{40,}$/);
    const token = url.split('/').pop() ?? '';
    const stored = await h.db.loginLink.findFirstOrThrow();
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.tokenHash).not.toContain(token);
    expect(stored.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60_000);

    const first = await useLink(url);
    expect(first.res.statusCode).toBe(303);
    expect((await first.client.get('/')).body).toContain('Signed in as <strong>hank</strong>');
    const second = await useLink(url);
    expect(second.res.statusCode).toBe(401);
    expect(second.res.body).toContain('This sign-in link is not valid any more');
  });

  it('does not spend the link when it is only opened (link previews)', async () => {
    const user = await createUser();
    const url = await getLogin(user.user_id);
    await webClient(h).get(linkPath(url));
    expect((await useLink(url)).res.statusCode).toBe(303);
  });

  it('is revoked by a password change and by logout_user', async () => {
    const user = await createUser();
    const beforeChange = await getLogin(user.user_id);
    await h.call('update_user', {
      target_user: { user_id: user.user_id, password: 'N3w-password!' },
    });
    expect((await useLink(beforeChange)).res.statusCode).toBe(401);
    const beforeLogout = await getLogin(user.user_id);
    await h.call('logout_user', { target_user: { user_id: user.user_id } });
    expect((await useLink(beforeLogout)).res.statusCode).toBe(401);
  });

  it('expires', async () => {
    const user = await createUser();
    const url = await getLogin(user.user_id);
    await h.db.loginLink.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await useLink(url)).res.statusCode).toBe(401);
  });

  it('refuses a locked user, and answers 404 and 403 like other user operations', async () => {
    const user = await createUser({ locked: true });
    expect((await useLink(await getLogin(user.user_id))).res.statusCode).toBe(403);
    const unknown = await h.call('get_login', {
      target_user: { user_id: 'abcdefabcdefabcdefabcdefabcdefab' },
    });
    expect(unknown.statusCode).toBe(404);
    const viewer = await h.issueKey(['users.view']);
    const denied = await h.call('get_login', { target_user: { user_id: user.user_id } }, viewer);
    expect(denied.statusCode).toBe(403);
  });
});
