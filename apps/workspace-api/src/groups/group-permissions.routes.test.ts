import { createHarness, type Harness } from '../../test/harness';
import { ADMINISTRATORS, createGroup, createMember } from '../../test/group-factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const update = (group_id: string, permissions: string[], key = h.admin) =>
  h.call('update_group', { target_group: { group_id, permissions } }, key);

describe("groups' permissions", () => {
  it('gives Administrators global_admin from the start', async () => {
    const res = await h.call('get_group', { target_group: { group_id: ADMINISTRATORS } });
    expect(res.json().group.permissions).toEqual(['global_admin']);
  });

  it('creates, reads and changes them through create_group, get_group and update_group', async () => {
    const group = await createGroup(h, { permissions: ['users.view', 'sessions.view'] });
    expect(group.permissions).toEqual(['users.view', 'sessions.view']);
    const changed = await update(group.group_id, ['groups.view']);
    expect(changed.statusCode).toBe(200);
    const res = await h.call('get_group', { target_group: { group_id: group.group_id } });
    expect(res.json().group.permissions).toEqual(['groups.view']);
  });

  it('refuses a permission outside the catalogue and one named twice with 400', async () => {
    const group = await createGroup(h);
    expect((await update(group.group_id, ['root'])).statusCode).toBe(400);
    expect((await update(group.group_id, ['users.view', 'users.view'])).statusCode).toBe(400);
  });

  it('lets a key grant or take away only permissions it holds, as it issues keys', async () => {
    const group = await createGroup(h, { permissions: ['sessions.view'] });
    const manager = await h.issueKey(['groups.modify', 'users.view']);
    expect(
      (await update(group.group_id, ['sessions.view', 'users.view'], manager)).statusCode,
    ).toBe(200);
    const granting = await update(group.group_id, ['users.view', 'global_admin'], manager);
    expect(granting.statusCode).toBe(403);
    expect(granting.json().detail).toContain('global_admin');
    const takingAway = await update(group.group_id, ['users.view'], manager);
    expect(takingAway.statusCode).toBe(403);
    expect(takingAway.json().detail).toContain('sessions.view');
    const created = await h.call(
      'create_group',
      { target_group: { name: 'Escalation', permissions: ['api_keys.modify'] } },
      manager,
    );
    expect(created.statusCode).toBe(403);
  });

  it('lets a key add or remove members only of groups granting no more than it holds', async () => {
    const manager = await h.issueKey(['groups.modify', 'users.view']);
    const user = await createMember(h, (await createGroup(h, { name: 'Plain' })).group_id, 'bob');
    const add = (group_id: string, key = manager) =>
      h.call(
        'add_user_group',
        { target_user: { user_id: user.user_id }, target_group: { group_id } },
        key,
      );
    const res = await add(ADMINISTRATORS);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toContain('global_admin');
    const viewers = await createGroup(h, { name: 'Viewers', permissions: ['users.view'] });
    expect((await add(viewers.group_id)).statusCode).toBe(200);
  });
});
