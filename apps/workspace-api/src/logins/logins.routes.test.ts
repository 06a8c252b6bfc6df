import { createHarness, type Harness } from '../../test/harness';
import { userActions } from '../../test/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ MAX_FAILED_LOGINS: '3' });
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const { createUser, login } = userActions(() => h);

describe('authenticate', () => {
  it('logs a user in without an API key, returning a token and the user', async () => {
    await createUser({ username: 'alice' });
    const res = await login('Alice');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: expect.any(String), user: { username: 'alice' } });
    expect(res.json().user.last_session).toEqual(expect.any(String));
    const session = await h.db.session.findFirstOrThrow();
    expect(session.tokenHash).not.toBe(res.json().token);
  });

  it('answers the same 401 for a wrong password and an unknown user', async () => {
    await createUser({ username: 'bob' });
    const wrong = await login('bob', 'Wr0ng-password');
    const unknown = await login('nobody');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe('LOGIN_FAILED');
  });

  it('refuses a user without a password', async () => {
    await createUser({ username: 'nopass', password: undefined });
    expect((await login('nopass')).statusCode).toBe(401);
  });

  it('locks the account after the configured number of consecutive failures', async () => {
    await createUser({ username: 'carol' });
    for (let i = 0; i < 3; i++)
      expect((await login('carol', 'Wr0ng-password')).statusCode).toBe(401);
    const res = await login('carol');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('USER_LOCKED');
    const user = (await h.call('get_user', { target_user: { username: 'carol' } })).json().user;
    expect(user.locked).toBe(true);
  });

  it('resets the failure count on a successful login', async () => {
    await createUser({ username: 'dave' });
    await login('dave', 'Wr0ng-password');
    await login('dave', 'Wr0ng-password');
    expect((await login('dave')).statusCode).toBe(200);
    await login('dave', 'Wr0ng-password');
    await login('dave', 'Wr0ng-password');
    expect((await login('dave')).statusCode).toBe(200);
  });

  it('refuses locked and disabled accounts with distinct codes', async () => {
    await createUser({ username: 'locked', locked: true });
    await createUser({ username: 'disabled', disabled: true });
    expect((await login('locked')).json()).toMatchObject({ status: 403, code: 'USER_LOCKED' });
    expect((await login('disabled')).json()).toMatchObject({ status: 403, code: 'USER_DISABLED' });
  });

  it('answers 400 when username or password is missing', async () => {
    const res = await h.call('authenticate', { username: 'x' }, null);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'password', message: expect.any(String) }]);
  });
});

describe('logout_user', () => {
  it('revokes every login session of that user only', async () => {
    const erin = await createUser({ username: 'erin' });
    await createUser({ username: 'frank' });
    await login('erin');
    await login('erin');
    await login('frank');
    const res = await h.call('logout_user', { target_user: { user_id: erin.user_id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const left = await h.db.session.findMany({ include: { user: true } });
    expect(left.map((s) => s.user.username)).toEqual(['frank']);
  });

  it('answers 404 for an unknown user and 403 without users.auth_session', async () => {
    const unknown = await h.call('logout_user', {
      target_user: { user_id: 'abcdefabcdefabcdefabcdefabcdefab' },
    });
    expect(unknown.statusCode).toBe(404);
    const viewer = await h.issueKey(['users.view']);
    const denied = await h.call(
      'logout_user',
      { target_user: { user_id: 'abcdefabcdefabcdefabcdefabcdefab' } },
      viewer,
    );
    expect(denied.statusCode).toBe(403);
  });
});
