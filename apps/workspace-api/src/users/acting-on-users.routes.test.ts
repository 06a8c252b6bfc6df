import { useHarness, type Harness } from '../../test/harness';
import { userInput, VALID_PASSWORD } from '../../test/factories';
import { ADMINISTRATORS, createGroup, createMember } from '../../test/group-factories';

// A key acts on a user only if it holds every permission the user's groups grant: the rule keys
// and memberships follow (no more than the caller holds), for each operation on a target user.
let h: Harness;
useHarness((ready) => (h = ready));

const target = (user: { user_id: string }) => ({ target_user: { user_id: user.user_id } });

/** A member of Administrators, and a user only in All Users (which grants nothing). */
async function adminAndPlainUser() {
  const admin = await createMember(h, ADMINISTRATORS, 'root-admin');
  const created = await h.call('create_user', { target_user: userInput({ username: 'plain' }) });
  return { admin, plain: created.json().user as { user_id: string } };
}

const refusal = expect.stringContaining('permissions the caller lacks: global_admin');

describe('operations on a target user', () => {
  it('refuses get_login for an administrator to a key holding only users.auth_session, and issues no link', async () => {
    const { admin, plain } = await adminAndPlainUser();
    const key = await h.issueKey(['users.auth_session']);
    const res = await h.call('get_login', target(admin), key);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toEqual(refusal);
    expect(await h.db.loginLink.count()).toBe(0);
    expect((await h.call('get_login', target(plain), key)).statusCode).toBe(200);
  });

  it('refuses logout_user of an administrator to a key holding only users.auth_session, who stays signed in', async () => {
    const { admin, plain } = await adminAndPlainUser();
    const signIn = { username: admin.username, password: VALID_PASSWORD };
    expect((await h.call('authenticate', signIn, null)).statusCode).toBe(200);
    const key = await h.issueKey(['users.auth_session']);
    expect((await h.call('logout_user', target(admin), key)).statusCode).toBe(403);
    expect(await h.db.loginSession.count()).toBe(1);
    expect((await h.call('logout_user', target(plain), key)).statusCode).toBe(200);
  });

  it('refuses update_user of an administrator (password, lock, disable) to a key holding only users.modify', async () => {
    const { admin, plain } = await adminAndPlainUser();
    const key = await h.issueKey(['users.modify']);
    const where = { username: admin.username };
    const before = await h.db.user.findUniqueOrThrow({ where });
    for (const change of [{ password: 'N3w-password!' }, { locked: true }, { disabled: true }]) {
      const res = await h.call(
        'update_user',
        { target_user: { user_id: admin.user_id, ...change } },
        key,
      );
      expect(res.statusCode).toBe(403);
    }
    const byName = { target_user: { username: admin.username, locked: true } };
    expect((await h.call('update_user', byName, key)).statusCode).toBe(403);
    const stored = await h.db.user.findUniqueOrThrow({ where });
    expect(stored).toMatchObject({ locked: false, disabled: false });
    expect(stored.passwordHash).toBe(before.passwordHash);
    const plainChange = { target_user: { user_id: plain.user_id, locked: true } };
    expect((await h.call('update_user', plainChange, key)).statusCode).toBe(200);
  });

  it('refuses delete_user of an administrator to a key holding only users.delete, and keeps them', async () => {
    const { admin, plain } = await adminAndPlainUser();
    const key = await h.issueKey(['users.delete']);
    const res = await h.call('delete_user', { ...target(admin), force: true }, key);
    expect(res.statusCode).toBe(403);
    expect(await h.db.user.count({ where: { username: admin.username } })).toBe(1);
    expect((await h.call('delete_user', target(plain), key)).statusCode).toBe(200);
  });

  it('lets a key holding every permission of the user’s groups act on them, and global_admin on anyone', async () => {
    const { admin } = await adminAndPlainUser();
    const team = await createGroup(h, { name: 'Support', permissions: ['users.view'] });
    const member = await createMember(h, team.group_id, 'support-member');
    const change = { target_user: { user_id: member.user_id, first_name: 'Pat' } };
    const lacking = await h.issueKey(['users.modify']);
    expect((await h.call('update_user', change, lacking)).json().detail).toContain('users.view');
    const holder = await h.issueKey(['users.modify', 'users.view']);
    expect((await h.call('update_user', change, holder)).statusCode).toBe(200);
    const adminChange = { target_user: { user_id: admin.user_id, first_name: 'Root' } };
    expect((await h.call('update_user', adminChange)).statusCode).toBe(200);
  });
});
