import { useHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';
import { ADMINISTRATORS, ALL_USERS } from '../../test/group-factories';

let h: Harness;
let userId: string;
useHarness((ready) => (h = ready));
beforeEach(async () => {
  userId = (await h.call('create_user', { target_user: userInput() })).json().user.user_id;
});

const membership = (groupId: string, user = userId) => ({
  target_user: { user_id: user },
  target_group: { group_id: groupId },
});
const groupsOf = async (id: string) =>
  (await h.call('get_user', { target_user: { user_id: id } }))
    .json()
    .user.groups.map((g: { name: string }) => g.name);

describe('add_user_group / remove_user_group', () => {
  it('adds a user to a system group and removes them again', async () => {
    expect((await h.call('add_user_group', membership(ADMINISTRATORS))).statusCode).toBe(200);
    expect(await groupsOf(userId)).toEqual(['All Users', 'Administrators']);
    expect((await h.call('remove_user_group', membership(ADMINISTRATORS))).statusCode).toBe(200);
    expect(await groupsOf(userId)).toEqual(['All Users']);
  });

  it('answers 409 when the user is already in the group', async () => {
    const res = await h.call('add_user_group', membership(ALL_USERS));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('USER_ALREADY_IN_GROUP');
  });

  it('lets one of several concurrent adds of the same pair win, the rest get 409', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => h.call('add_user_group', membership(ADMINISTRATORS))),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });

  it('refuses to remove anyone from All Users', async () => {
    const res = await h.call('remove_user_group', membership(ALL_USERS));
    expect(res.statusCode).toBe(409);
    expect(await groupsOf(userId)).toEqual(['All Users']);
  });

  it('answers 404 for an unknown group, an unknown user, and a missing membership', async () => {
    expect(
      (await h.call('add_user_group', membership('11111111111111111111111111111111'))).json().code,
    ).toBe('GROUP_NOT_FOUND');
    expect(
      (
        await h.call(
          'add_user_group',
          membership(ADMINISTRATORS, '11111111111111111111111111111111'),
        )
      ).json().code,
    ).toBe('USER_NOT_FOUND');
    expect((await h.call('remove_user_group', membership(ADMINISTRATORS))).json().code).toBe(
      'USER_NOT_IN_GROUP',
    );
  });

  it('needs groups.modify', async () => {
    const key = await h.issueKey(['users.modify']);
    expect((await h.call('add_user_group', membership(ADMINISTRATORS), key)).statusCode).toBe(403);
  });
});
