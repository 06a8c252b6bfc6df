import { describeInChange } from './audit-in-change';
import { userActions, VALID_PASSWORD } from '../factories';
import type { Harness } from '../harness';

// delete_user, logout_user, get_login and update_user_attributes write their audit event in the
// change's own transaction (create_user and update_user: users-in-change.test.ts).

/** A user who has signed in once (a login session to end). */
async function signedIn(h: Harness) {
  const { createUser, login } = userActions(() => h);
  const user = await createUser({ username: 'ada', password: VALID_PASSWORD });
  expect((await login('ada')).statusCode).toBe(200);
  return { target_user: { user_id: user.user_id } };
}
const userIdOf = (body: Record<string, Record<string, string>>) => body.target_user.user_id;
const named = { username: 'ada' };

describeInChange([
  {
    operation: 'delete_user',
    table: 'user',
    arrange: signedIn,
    state: (h) => h.db.user.count({ where: named }),
    targetId: userIdOf,
    snapshots: (before, after) => {
      expect(before).toMatchObject(named);
      expect(after).toBeNull();
    },
  },
  {
    operation: 'logout_user',
    table: 'login_session',
    arrange: signedIn,
    state: (h) => h.db.loginSession.count(),
    targetId: userIdOf,
    snapshots: (before, after) => {
      expect(before).toMatchObject(named);
      expect(after).toEqual(before);
    },
  },
  {
    operation: 'get_login',
    table: 'login_link',
    arrange: signedIn,
    state: (h) => h.db.loginLink.count(),
    targetId: userIdOf,
    snapshots: (before, after) => {
      expect(before).toMatchObject(named);
      expect(JSON.stringify(after)).not.toMatch(/token|login_link/i);
    },
  },
  {
    operation: 'update_user_attributes',
    table: 'user_attributes',
    arrange: async (h) => ({
      target_user_attributes: { user_id: userIdOf(await signedIn(h)), theme: 'Dark' },
    }),
    state: (h) => h.db.userAttributes.findMany({ select: { theme: true } }),
    targetId: (body) => body.target_user_attributes.user_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ theme: 'Light' });
      expect(after).toMatchObject({ theme: 'Dark' });
    },
  },
]);
