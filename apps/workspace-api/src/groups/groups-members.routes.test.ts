import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';

const ALL_USERS = '68d557ac4cac42cca9f31c7c853de0f3';
const UNKNOWN = '11111111111111111111111111111111';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

async function createGroup(target_group: Record<string, unknown> = {}) {
  const res = await h.call('create_group', {
    target_group: { name: 'Developers', ...target_group },
  });
  expect(res.statusCode).toBe(200);
  return res.json().group;
}

async function createMember(groupId: string, username?: string) {
  const user = (
    await h.call('create_user', { target_user: userInput(username ? { username } : {}) })
  ).json().user;
  expect(
    (
      await h.call('add_user_group', {
        target_user: { user_id: user.user_id },
        target_group: { group_id: groupId },
      })
    ).statusCode,
  ).toBe(200);
  return user;
}

describe('get_users_group', () => {
  it('pages through the members sorted by username, with the total', async () => {
    const group = await createGroup();
    for (const name of ['erin', 'alice', 'dave', 'carol', 'bob'])
      await createMember(group.group_id, name);
    await h.call('create_user', { target_user: userInput({ username: 'outsider' }) });
    const page = (
      await h.call('get_users_group', {
        target_group: { group_id: group.group_id },
        page: 1,
        page_size: 2,
      })
    ).json();
    expect(page).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(page.users.map((u: { username: string }) => u.username)).toEqual(['carol', 'dave']);
    expect(page.users[0].groups.map((g: { name: string }) => g.name)).toEqual([
      'All Users',
      'Developers',
    ]);
  });

  it('has every user in All Users, and no one in a new group', async () => {
    await h.call('create_user', { target_user: userInput() });
    expect(
      (await h.call('get_users_group', { target_group: { group_id: ALL_USERS } })).json(),
    ).toMatchObject({ total: 1, page_size: 100 });
    const group = await createGroup();
    expect(
      (await h.call('get_users_group', { target_group: { group_id: group.group_id } })).json(),
    ).toMatchObject({ users: [], total: 0 });
  });

  it('answers 404 for an unknown group and 400 for a page size over 1000', async () => {
    expect(
      (await h.call('get_users_group', { target_group: { group_id: UNKNOWN } })).json().code,
    ).toBe('GROUP_NOT_FOUND');
    expect(
      (await h.call('get_users_group', { target_group: { group_id: ALL_USERS }, page_size: 1001 }))
        .statusCode,
    ).toBe(400);
  });
});
