import { toUuid } from '@platform/schemas';
import { createHarness, type Harness } from '../../test/harness';
import { UNKNOWN_ID, userInput } from '../../test/factories';
import { ADMINISTRATORS, ALL_USERS, createGroup, createMember } from '../../test/group-factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

describe('update_group', () => {
  it('changes only the fields present', async () => {
    const group = await createGroup(h, { description: 'Old', priority: 10 });
    const res = await h.call('update_group', {
      target_group: { group_id: group.group_id, priority: 20 },
    });
    expect(res.json().group).toMatchObject({
      name: 'Developers',
      description: 'Old',
      priority: 20,
    });
    const renamed = await h.call('update_group', {
      target_group: { group_id: group.group_id, name: 'Engineers', description: '' },
    });
    expect(renamed.json().group).toMatchObject({
      name: 'Engineers',
      description: '',
      priority: 20,
    });
  });

  it('answers 409 GROUP_NAME_TAKEN when renaming onto another group', async () => {
    await createGroup(h, { name: 'Taken' });
    const group = await createGroup(h);
    const res = await h.call('update_group', {
      target_group: { group_id: group.group_id, name: 'Taken' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('GROUP_NAME_TAKEN');
  });

  it('lets system groups change description and priority but never their name', async () => {
    const res = await h.call('update_group', {
      target_group: { group_id: ALL_USERS, description: 'Everyone', priority: 4000 },
    });
    expect(res.json().group).toMatchObject({
      name: 'All Users',
      description: 'Everyone',
      priority: 4000,
      is_system: true,
    });
    const rename = await h.call('update_group', {
      target_group: { group_id: ALL_USERS, name: 'Everybody' },
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().code).toBe('SYSTEM_GROUP');
    expect(
      (await h.call('update_group', { target_group: { group_id: ALL_USERS, name: 'All Users' } }))
        .statusCode,
    ).toBe(200);
  });

  it('answers 404 for an unknown group and 400 for a priority out of bounds', async () => {
    expect(
      (await h.call('update_group', { target_group: { group_id: UNKNOWN_ID, priority: 5 } })).json()
        .code,
    ).toBe('GROUP_NOT_FOUND');
    expect(
      (await h.call('update_group', { target_group: { group_id: ADMINISTRATORS, priority: 4096 } }))
        .statusCode,
    ).toBe(400);
  });
});

describe('delete_group', () => {
  it('deletes an empty group', async () => {
    const group = await createGroup(h);
    const res = await h.call('delete_group', { target_group: { group_id: group.group_id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(
      (await h.call('get_group', { target_group: { group_id: group.group_id } })).statusCode,
    ).toBe(404);
  });

  it('refuses a group with members unless forced; forcing keeps the users', async () => {
    const group = await createGroup(h);
    const user = await createMember(h, group.group_id);
    const refused = await h.call('delete_group', { target_group: { group_id: group.group_id } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'GROUP_HAS_MEMBERS',
      detail: expect.stringContaining('1 member'),
    });
    expect(
      (await h.call('delete_group', { target_group: { group_id: group.group_id }, force: true }))
        .statusCode,
    ).toBe(200);
    const after = (await h.call('get_user', { target_user: { user_id: user.user_id } })).json()
      .user;
    expect(after.groups.map((g: { name: string }) => g.name)).toEqual(['All Users']);
  });

  it.each([
    ['All Users', ALL_USERS],
    ['Administrators', ADMINISTRATORS],
  ])('refuses to delete the system group %s, even forced', async (name, groupId) => {
    const res = await h.call('delete_group', { target_group: { group_id: groupId }, force: true });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'SYSTEM_GROUP',
      detail: `The system group "${name}" cannot be deleted`,
    });
    expect(await h.db.group.count({ where: { isSystem: true } })).toBe(2);
  });

  it('never deletes, unforced, a group that gains a member at the same moment', async () => {
    for (let i = 0; i < 5; i++) {
      const group = await createGroup(h, { name: `Race ${i}` });
      const user = (await h.call('create_user', { target_user: userInput() })).json().user;
      const [added, deleted] = await Promise.all([
        h.call('add_user_group', {
          target_user: { user_id: user.user_id },
          target_group: { group_id: group.group_id },
        }),
        h.call('delete_group', { target_group: { group_id: group.group_id } }),
      ]);
      expect([added.statusCode, deleted.statusCode]).not.toEqual([200, 200]);
      const memberships = await h.db.userGroup.count({ where: { userId: toUuid(user.user_id) } });
      expect(memberships).toBe(added.statusCode === 200 ? 2 : 1);
    }
  });

  it('refuses a key holding only groups.delete a group granting what it lacks, which stays with its members', async () => {
    const group = await createGroup(h, { name: 'Operators', permissions: ['global_admin'] });
    await createMember(h, group.group_id);
    const key = await h.issueKey(['groups.delete']);
    const body = { target_group: { group_id: group.group_id }, force: true };
    const res = await h.call('delete_group', body, key);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toContain('permissions the caller lacks: global_admin');
    expect(await h.db.userGroup.count({ where: { groupId: toUuid(group.group_id) } })).toBe(1);
    const plain = await createGroup(h, { name: 'Plain' });
    const deleted = await h.call(
      'delete_group',
      { target_group: { group_id: plain.group_id } },
      key,
    );
    expect(deleted.statusCode).toBe(200);
  });

  it('answers 404 for an unknown group and 400 for a force that is not a boolean', async () => {
    expect(
      (await h.call('delete_group', { target_group: { group_id: UNKNOWN_ID } })).json().code,
    ).toBe('GROUP_NOT_FOUND');
    const group = await createGroup(h);
    expect(
      (await h.call('delete_group', { target_group: { group_id: group.group_id }, force: 'yes' }))
        .statusCode,
    ).toBe(400);
  });
});
