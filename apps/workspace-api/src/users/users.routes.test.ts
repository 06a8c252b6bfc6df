import { problemFields } from '@platform/testing';
import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

async function createUser(overrides = {}) {
  const res = await h.call('create_user', { target_user: userInput(overrides) });
  expect(res.statusCode).toBe(200);
  return res.json().user;
}

describe('create_user', () => {
  it('creates a user in All Users and never returns the password', async () => {
    const res = await h.call('create_user', {
      target_user: userInput({ username: '  Grace.Hopper ' }),
    });
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({
      username: 'grace.hopper',
      first_name: 'Ada',
      realm: 'local',
      locked: false,
      disabled: false,
      groups: [{ group_id: '68d557ac4cac42cca9f31c7c853de0f3', name: 'All Users' }],
    });
    expect(user.user_id).toMatch(/^[0-9a-f]{32}$/);
    expect(user.password_set_date).toEqual(expect.any(String));
    expect(res.body).not.toMatch(/password_hash|Corr3ct/);
  });

  it('creates a user without a password, who has no password_set_date', async () => {
    const user = await createUser({ password: undefined });
    expect(user.password_set_date).toBeNull();
  });

  it('answers 409 USERNAME_TAKEN for a username differing only in case', async () => {
    await createUser({ username: 'linus' });
    const res = await h.call('create_user', { target_user: userInput({ username: 'LINUS' }) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'USERNAME_TAKEN', status: 409 });
  });

  it('lets exactly one of ten concurrent creates of the same username win', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.call('create_user', { target_user: userInput({ username: 'race' }) }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    expect(await h.db.user.count({ where: { username: 'race' } })).toBe(1);
  });

  it('reports every broken password rule at once', async () => {
    const res = await h.call('create_user', { target_user: userInput({ password: 'abc' }) });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('PASSWORD_RULES');
    expect(body.errors.map((e: { message: string }) => e.message)).toEqual([
      expect.stringContaining('8 characters'),
      expect.stringContaining('uppercase'),
      expect.stringContaining('digit'),
      expect.stringContaining('special'),
    ]);
    expect(await h.db.user.count()).toBe(0);
  });

  it.each([
    ['Sh0rt!x', '8 characters'],
    ['lower0nly!', 'uppercase'],
    ['UPPER0NLY!', 'lowercase'],
    ['NoDigits!here', 'digit'],
    ['NoSpecial0here', 'special'],
  ])('rejects %s for breaking only the %s rule', async (password, rule) => {
    const res = await h.call('create_user', { target_user: userInput({ password }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'target_user.password', message: expect.stringContaining(rule) },
    ]);
  });

  it('rejects a too-long first_name with 400 instead of truncating', async () => {
    const res = await h.call('create_user', {
      target_user: userInput({ first_name: 'x'.repeat(65) }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'target_user.first_name' }],
    });
  });

  it('lists every schema problem, and a missing target_user', async () => {
    const res = await h.call('create_user', { target_user: { username: 5, locked: 'yes' } });
    expect(res.statusCode).toBe(400);
    expect(problemFields(res)).toEqual(['target_user.locked', 'target_user.username']);
    const missing = await h.call('create_user', {});
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'target_user' }],
    });
  });

  it('rejects a blank username after trimming', async () => {
    const res = await h.call('create_user', { target_user: userInput({ username: '   ' }) });
    expect(res.statusCode).toBe(400);
  });

  it('ignores unknown fields, as Kasm clients send extra ones', async () => {
    const res = await h.call('create_user', {
      target_user: { ...userInput(), kasm_extra: 1 },
      other: true,
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('get_user', () => {
  it('finds a user by undashed id, dashed id, upper case id and username', async () => {
    const user = await createUser({ username: 'finder' });
    const dashed = user.user_id.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    for (const target of [
      { user_id: user.user_id },
      { user_id: dashed },
      { user_id: dashed.toUpperCase() },
      { username: 'FINDER' },
    ]) {
      const res = await h.call('get_user', { target_user: target });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.user_id).toBe(user.user_id);
    }
  });

  it('answers 404 USER_NOT_FOUND when user_id matches no user', async () => {
    const res = await h.call('get_user', {
      target_user: { user_id: '00000000000000000000000000000000' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'USER_NOT_FOUND', error_message: expect.any(String) });
  });

  it('answers 400 for a malformed id, not 500', async () => {
    const res = await h.call('get_user', { target_user: { user_id: 'not-an-id' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('target_user.user_id');
  });

  it('answers 400 when neither user_id nor username is given', async () => {
    const res = await h.call('get_user', { target_user: {} });
    expect(res.statusCode).toBe(400);
  });
});
