import { createHarness, type Harness } from '../../test/harness';
import { UNKNOWN_ID, userInput } from '../../test/factories';
import { ALL_USERS, createGroup, createMember } from '../../test/group-factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

describe('get_users_group', () => {
  it('pages through the members sorted by username, with the total', async () => {
    const group = await createGroup(h);
    for (const name of ['erin', 'alice', 'dave', 'carol', 'bob'])
      await createMember(h, group.group_id, name);
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
    const group = await createGroup(h);
    expect(
      (await h.call('get_users_group', { target_group: { group_id: group.group_id } })).json(),
    ).toMatchObject({ users: [], total: 0 });
  });

  it('answers 404 for an unknown group and 400 for a page size over 1000', async () => {
    expect(
      (await h.call('get_users_group', { target_group: { group_id: UNKNOWN_ID } })).json().code,
    ).toBe('GROUP_NOT_FOUND');
    expect(
      (await h.call('get_users_group', { target_group: { group_id: ALL_USERS }, page_size: 1001 }))
        .statusCode,
    ).toBe(400);
  });
});
