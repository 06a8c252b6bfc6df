import bcrypt from 'bcrypt';
import { createHarness, type Harness } from '../../test/harness';
import { userActions } from '../../test/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const { createUser, login } = userActions(() => h);

describe('update_user', () => {
  it('changes only the field present and leaves the others untouched', async () => {
    const user = await createUser({ username: 'single', phone: '555-0100', notes: 'keep me' });
    const res = await h.call('update_user', {
      target_user: { user_id: user.user_id, last_name: 'Byron' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual({ ...user, last_name: 'Byron' });
  });

  it('updates each field of the contract', async () => {
    const user = await createUser();
    const changes = {
      username: 'Renamed',
      first_name: 'F',
      last_name: 'L',
      phone: '1',
      organization: 'O',
      notes: 'N',
      locked: true,
      disabled: true,
    };
    const res = await h.call('update_user', { target_user: { user_id: user.user_id, ...changes } });
    expect(res.json().user).toMatchObject({ ...changes, username: 'renamed' });
  });

  it('answers 409 when renaming onto a taken username', async () => {
    await createUser({ username: 'taken' });
    const user = await createUser();
    const res = await h.call('update_user', {
      target_user: { user_id: user.user_id, username: 'Taken' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('USERNAME_TAKEN');
  });

  it('answers 404 for an unknown user_id', async () => {
    const res = await h.call('update_user', {
      target_user: { user_id: 'ffffffffffffffffffffffffffffffff', phone: '1' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('USER_NOT_FOUND');
  });

  it('rejects a wrong type with 400 and changes nothing', async () => {
    const user = await createUser();
    const res = await h.call('update_user', {
      target_user: { user_id: user.user_id, locked: 'true' },
    });
    expect(res.statusCode).toBe(400);
    expect(
      (await h.call('get_user', { target_user: { user_id: user.user_id } })).json().user.locked,
    ).toBe(false);
  });

  it('checks the password rules on a new password and keeps the old one when they fail', async () => {
    const user = await createUser({ username: 'weak' });
    const res = await h.call('update_user', {
      target_user: { user_id: user.user_id, password: 'weak' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PASSWORD_RULES');
    expect((await login('weak')).statusCode).toBe(200);
  });

  it('hashes a new password with bcrypt, sets password_set_date and revokes every login session', async () => {
    const user = await createUser({ username: 'rotate' });
    expect((await login('rotate')).statusCode).toBe(200);
    expect((await login('rotate')).statusCode).toBe(200);
    expect(await h.db.loginSession.count()).toBe(2);

    const res = await h.call('update_user', {
      target_user: { user_id: user.user_id, password: 'N3w-password!' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.password_set_date).not.toBe(user.password_set_date);
    expect(await h.db.loginSession.count()).toBe(0);
    const row = await h.db.user.findUniqueOrThrow({ where: { username: 'rotate' } });
    expect(row.passwordHash).toMatch(/^\$2b\$04\$/);
    expect(await bcrypt.compare('N3w-password!', row.passwordHash!)).toBe(true);
    expect((await login('rotate')).statusCode).toBe(401);
    expect((await login('rotate', 'N3w-password!')).statusCode).toBe(200);
  });

  it('resets the failed-login count when unlocking', async () => {
    const user = await createUser({ username: 'unlock' });
    await h.db.user.update({
      where: { username: 'unlock' },
      data: { failedLoginCount: 4, locked: true },
    });
    await h.call('update_user', { target_user: { user_id: user.user_id, locked: false } });
    expect(
      (await h.db.user.findUniqueOrThrow({ where: { username: 'unlock' } })).failedLoginCount,
    ).toBe(0);
  });
});

describe('delete_user', () => {
  it('deletes a user with its memberships and answers {}', async () => {
    const user = await createUser();
    const res = await h.call('delete_user', { target_user: { user_id: user.user_id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(await h.db.user.count()).toBe(0);
    expect(await h.db.userGroup.count()).toBe(0);
  });

  it('deletes a signed-in user and ends their login sessions (only workspace sessions need force)', async () => {
    const user = await createUser({ username: 'busy' });
    await login('busy');
    const res = await h.call('delete_user', { target_user: { user_id: user.user_id } });
    expect(res.statusCode).toBe(200);
    expect(await h.db.loginSession.count()).toBe(0);
  });

  it('answers 400 when force is not a boolean', async () => {
    const user = await createUser();
    const res = await h.call('delete_user', {
      target_user: { user_id: user.user_id },
      force: 'yes',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('force');
  });

  it('answers 404 for an unknown user_id', async () => {
    const res = await h.call('delete_user', {
      target_user: { user_id: '0f0f0f0f-0f0f-0f0f-0f0f-0f0f0f0f0f0f' },
    });
    expect(res.statusCode).toBe(404);
  });
});
