import { ADMINISTRATORS, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { userActions, VALID_PASSWORD } from '../factories';
import { signIn, webClient } from '../web/web-client';

let h: Harness;
beforeAll(async () => {
  // The break-glass name as an operator might write it: spaces and capitals are forgiven.
  h = await createHarness({ SSO_REQUIRED: 'true', SSO_BREAK_GLASS_USERS: ' Root , other-admin' });
});
afterAll(() => h?.close());
beforeEach(async () => {
  await h.reset();
  await createMember(h, ADMINISTRATORS, 'root');
  await createUser({ username: 'ada' });
});
const { createUser, login } = userActions(() => h);

const refusals = () =>
  h.db.auditEvent.findMany({ where: { operation: 'sign_in' }, orderBy: { createdAt: 'asc' } });

describe('SSO_REQUIRED: password sign-in only for the break-glass administrators', () => {
  it('refuses a local user over the API (403 SSO_REQUIRED, right password or wrong) and records why', async () => {
    const right = await login('ada');
    expect(right.statusCode).toBe(403);
    expect(right.json().code).toBe('SSO_REQUIRED');
    // A wrong password gets the same answer: the refusal tells nothing of the password.
    const wrong = await login('ada', 'Wr0ng-password');
    expect(wrong.statusCode).toBe(403);
    expect(await h.db.loginSession.count()).toBe(0);
    const events = await refusals();
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      result: 'denied',
      channel: 'api',
      errorCode: 'SSO_REQUIRED',
      actorKind: 'system',
      targetType: 'user',
      targetId: 'ada',
      after: expect.objectContaining({ username: 'ada' }),
    });
    // Nor does it count toward locking the account.
    expect(await h.db.user.findUniqueOrThrow({ where: { username: 'ada' } })).toMatchObject({
      locked: false,
    });
  });

  it('refuses a local user on the sign-in page (the console signs in there too), saying how to sign in', async () => {
    const client = webClient(h);
    const res = await signIn(client, 'ada', VALID_PASSWORD);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Sign in with your organisation&#39;s account');
    expect(client.cookies.size).toBeGreaterThan(0);
    expect([...client.cookies.keys()].some((name) => name.endsWith('ws_session'))).toBe(false);
    expect(await refusals()).toEqual([
      expect.objectContaining({ channel: 'web', errorCode: 'SSO_REQUIRED', targetId: 'ada' }),
    ]);
    const console = webClient(h);
    await console.get('/admin');
    const viaConsole = await console.post('/sign-in', {
      username: 'ada',
      password: VALID_PASSWORD,
      next: '/admin',
      _csrf: console.csrf(),
    });
    expect(viaConsole.statusCode).toBe(403);
  });

  it('lets the break-glass administrator in, by API, page and console', async () => {
    expect((await login('root')).statusCode).toBe(200);
    const client = webClient(h);
    expect((await signIn(client, 'ROOT', VALID_PASSWORD)).statusCode).toBe(303);
    const adminPage = await client.get('/admin/sso');
    expect(adminPage.statusCode).toBe(200);
    expect(adminPage.body).toContain('Signed in as');
    expect(await refusals()).toEqual([]);
  });
});
