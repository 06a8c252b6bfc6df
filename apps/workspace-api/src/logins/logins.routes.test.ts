import { createHarness, type Harness } from '../../test/harness';
import { userActions, VALID_PASSWORD } from '../../test/factories';

// The lock alone here (no per-address throttle); both together below.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    MAX_FAILED_LOGINS: '3',
    LOGIN_FAILURE_LIMIT: '0',
    SLOWED_LOGIN_INTERVAL_MS: '100',
  });
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
    const session = await h.db.loginSession.findFirstOrThrow();
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

  it('locks the account after the configured number of consecutive failures from an address it signed in from', async () => {
    await createUser({ username: 'carol' });
    expect((await login('carol')).statusCode).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await login('carol', 'Wr0ng-password')).statusCode).toBe(401);
    const res = await login('carol');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('USER_LOCKED');
    const user = (await h.call('get_user', { target_user: { username: 'carol' } })).json().user;
    expect(user.locked).toBe(true);
  });

  it('never locks the account for wrong passwords from addresses the user never signed in from', async () => {
    await createUser({ username: 'ivy' });
    expect((await login('ivy')).statusCode).toBe(200);
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await loginFrom('ivy', 'Wr0ng-password', '203.0.113.9')).statusCode);
    // Past the account's budget for new addresses, slowed but still checked.
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect((await login('ivy')).statusCode).toBe(200);
    const user = await h.db.user.findUniqueOrThrow({ where: { username: 'ivy' } });
    expect(user).toMatchObject({ locked: false, failedLoginCount: 0 });
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

/** authenticate from a client address of the test's choosing. */
function loginFrom(username: string, password: string, address: string, harness = h) {
  return harness.inject({
    method: 'POST',
    url: '/api/public/authenticate',
    payload: { username, password },
    remoteAddress: address,
  });
}

describe('authenticate with the default throttles: a stranger cannot lock a user out', () => {
  // LOGIN_FAILURE_LIMIT 3 per (address, username), MAX_FAILED_LOGINS 5.
  const INTERVAL = 300;
  let d: Harness;
  beforeAll(async () => {
    d = await createHarness({ SLOWED_LOGIN_INTERVAL_MS: String(INTERVAL) });
  });
  afterAll(() => d.close());
  const create = (username: string) =>
    d.call('create_user', { target_user: { username, password: VALID_PASSWORD } });
  const statusesOf = async (attempts: (() => ReturnType<typeof loginFrom>)[]) => {
    const statuses = [];
    for (const attempt of attempts) statuses.push((await attempt()).statusCode);
    return statuses;
  };

  it("throttles one address's guesses at a username before the account lock; the user still signs in", async () => {
    await create('judy');
    expect((await loginFrom('judy', VALID_PASSWORD, '198.51.100.1', d)).statusCode).toBe(200);
    const stranger = () => loginFrom('judy', 'Wr0ng-password', '203.0.113.20', d);
    expect(await statusesOf(Array(7).fill(stranger))).toEqual([401, 401, 401, 429, 429, 429, 429]);
    expect((await loginFrom('judy', VALID_PASSWORD, '198.51.100.1', d)).statusCode).toBe(200);
  });

  it("throttles guesses from the user's own address before they reach the lock", async () => {
    await create('kim');
    expect((await loginFrom('kim', VALID_PASSWORD, '198.51.100.2', d)).statusCode).toBe(200);
    const guess = () => loginFrom('kim', 'Wr0ng-password', '198.51.100.2', d);
    expect(await statusesOf(Array(5).fill(guess))).toEqual([401, 401, 401, 429, 429]);
    const user = await d.db.user.findUniqueOrThrow({ where: { username: 'kim' } });
    expect(user).toMatchObject({ locked: false, failedLoginCount: 3 });
  });

  it("lets a right password in from a new address after five wrong ones from two addresses, a brand-new user's first sign-in too", async () => {
    await create('nia');
    const wrong = (address: string) => () => loginFrom('nia', 'Wr0ng-password', address, d);
    const guesses = [
      ...Array(3).fill(wrong('203.0.113.30')),
      ...Array(2).fill(wrong('203.0.113.31')),
    ];
    expect(await statusesOf(guesses)).toEqual([401, 401, 401, 401, 401]);
    const first = await loginFrom('nia', VALID_PASSWORD, '198.51.100.30', d);
    expect(first.statusCode).toBe(200);
    const user = await d.db.user.findUniqueOrThrow({ where: { username: 'nia' } });
    expect(user).toMatchObject({ locked: false, failedLoginCount: 0 });
  });

  it('checks logins from new addresses past the account budget one at a time, SLOWED_LOGIN_INTERVAL_MS apart; the right one among them signs in', async () => {
    await create('lee');
    expect((await loginFrom('lee', VALID_PASSWORD, '198.51.100.3', d)).statusCode).toBe(200);
    const spread = Array.from(
      { length: 5 },
      (_, i) => () => loginFrom('lee', 'Wr0ng-password', `203.0.113.${100 + i}`, d),
    );
    expect(await statusesOf(spread)).toEqual([401, 401, 401, 401, 401]);
    // The budget is spent: four more guesses and the user, each from a new address, at once.
    const start = Date.now();
    const finished: number[] = [];
    const timed = (password: string, address: string) =>
      loginFrom('lee', password, address, d).then((res) => {
        finished.push(Date.now() - start);
        return res.statusCode;
      });
    const attempts = [
      ...Array.from({ length: 4 }, (_, i) => timed('Wr0ng-password', `203.0.113.${150 + i}`)),
      timed(VALID_PASSWORD, '203.0.113.200'),
    ];
    expect(await Promise.all(attempts)).toEqual([401, 401, 401, 401, 200]);
    // The k-th check past the budget cannot start before k intervals: guessing stays bounded.
    finished.forEach((at, k) => expect(at).toBeGreaterThanOrEqual(k * INTERVAL - 5));
    expect((await loginFrom('lee', VALID_PASSWORD, '198.51.100.3', d)).statusCode).toBe(200);
    const user = await d.db.user.findUniqueOrThrow({ where: { username: 'lee' } });
    expect(user.locked).toBe(false);
  });

  it('remembers the addresses a user signed in from, the IPv6 ones per /64', async () => {
    await create('mia');
    await loginFrom('mia', VALID_PASSWORD, '2001:db8:1:2::5', d);
    await loginFrom('mia', VALID_PASSWORD, '2001:db8:1:2::6', d);
    const rows = await d.db.loginAddress.findMany({ where: { user: { username: 'mia' } } });
    expect(rows.map((r) => r.address)).toEqual(['2001:db8:1:2::/64']);
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
    const left = await h.db.loginSession.findMany({ include: { user: true } });
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
