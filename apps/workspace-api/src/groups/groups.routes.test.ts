import { UNKNOWN_ID } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { ALL_USERS, createGroup } from '../../test/group-factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

describe('create_group', () => {
  it('requires recording of its members’ sessions with record_sessions, kept through update_group', async () => {
    const group = await createGroup(h, { name: 'Examinees' });
    const res = await h.call('update_group', {
      target_group: { group_id: group.group_id, record_sessions: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().group.record_sessions).toBe(true);
    const bad = await h.call('update_group', {
      target_group: { group_id: group.group_id, record_sessions: 'always' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('creates a group with a trimmed name and the default priority', async () => {
    const group = await createGroup(h, { name: '  Developers ', description: 'Writes code' });
    expect(group).toEqual({
      group_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'Developers',
      description: 'Writes code',
      priority: 100,
      record_sessions: false,
      max_kasms_per_user: null,
      is_system: false,
      permissions: [],
      allow_kasm_clipboard_up: true,
      allow_kasm_clipboard_down: true,
      allow_kasm_uploads: true,
      allow_kasm_downloads: true,
      shared_session_full_control: false,
      created: expect.any(String),
    });
  });

  it('sets the transfers its members are refused; the ones not given stay', async () => {
    const group = await createGroup(h, { allow_kasm_uploads: false });
    expect(group.allow_kasm_uploads).toBe(false);
    const changed = await h.call('update_group', {
      target_group: { group_id: group.group_id, allow_kasm_clipboard_down: false },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().group).toMatchObject({
      allow_kasm_uploads: false,
      allow_kasm_clipboard_down: false,
      allow_kasm_clipboard_up: true,
      allow_kasm_downloads: true,
    });
  });

  it('sets the session limit its members get; null leaves it as it is', async () => {
    const group = await createGroup(h, { max_kasms_per_user: 3 });
    expect(group.max_kasms_per_user).toBe(3);
    const changed = await h.call('update_group', {
      target_group: { group_id: group.group_id, max_kasms_per_user: 0 },
    });
    expect(changed.json().group.max_kasms_per_user).toBe(0);
    const res = await h.call('update_group', {
      target_group: { group_id: group.group_id, max_kasms_per_user: null },
    });
    expect(res.json().group.max_kasms_per_user).toBe(0);
    const negative = await h.call('create_group', {
      target_group: { name: 'Bad', max_kasms_per_user: -1 },
    });
    expect(negative.statusCode).toBe(400);
  });

  it('answers 409 GROUP_NAME_TAKEN for a name in use, system names included', async () => {
    await createGroup(h);
    for (const name of ['Developers', 'All Users']) {
      const res = await h.call('create_group', { target_group: { name } });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('GROUP_NAME_TAKEN');
    }
  });

  it('treats group names that differ only in case as the same name, like usernames', async () => {
    const developers = await createGroup(h);
    for (const name of ['developers', 'DEVELOPERS', 'all users', 'ADMINISTRATORS']) {
      const res = await h.call('create_group', { target_group: { name } });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('GROUP_NAME_TAKEN');
    }
    const other = (await h.call('create_group', { target_group: { name: 'Ops' } })).json().group;
    const clash = await h.call('update_group', {
      target_group: { group_id: other.group_id, name: 'all USERS' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe('GROUP_NAME_TAKEN');
    const recased = await h.call('update_group', {
      target_group: { group_id: developers.group_id, name: 'DEVELOPERS' },
    });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().group.name).toBe('DEVELOPERS');
  });

  it('lets exactly one of several concurrent creates of the same name win', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => h.call('create_group', { target_group: { name: 'Race' } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it.each([1, 4095])('accepts priority %i', async (priority) => {
    expect((await createGroup(h, { priority })).priority).toBe(priority);
  });

  it.each([0, 4096, -1, 1.5, '10'])('rejects priority %p with 400', async (priority) => {
    const res = await h.call('create_group', { target_group: { name: 'P', priority } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'target_group.priority' }],
    });
  });

  it('rejects a missing or blank name', async () => {
    expect((await h.call('create_group', { target_group: {} })).json().errors).toEqual([
      { field: 'target_group.name', message: expect.any(String) },
    ]);
    expect((await h.call('create_group', { target_group: { name: '   ' } })).statusCode).toBe(400);
  });
});

describe('get_groups / get_group', () => {
  it('lists every group, system groups included, by priority', async () => {
    await createGroup(h, { name: 'Zeta', priority: 50 });
    await createGroup(h, { name: 'Alpha', priority: 50 });
    const { groups } = (await h.call('get_groups')).json();
    expect(groups.map((g: { name: string }) => g.name)).toEqual([
      'Administrators',
      'Alpha',
      'Zeta',
      'All Users',
    ]);
    expect(groups.find((g: { group_id: string }) => g.group_id === ALL_USERS)).toMatchObject({
      is_system: true,
      priority: 4095,
    });
  });

  it('gets one group by its id, dashed or not', async () => {
    const group = await createGroup(h);
    expect(
      (await h.call('get_group', { target_group: { group_id: group.group_id } })).json().group,
    ).toEqual(group);
    const dashed = '68d557ac-4cac-42cc-a9f3-1c7c853de0f3';
    expect(
      (await h.call('get_group', { target_group: { group_id: dashed } })).json().group.name,
    ).toBe('All Users');
  });

  it('answers 404 GROUP_NOT_FOUND for an unknown id and 400 for a malformed one', async () => {
    const missing = await h.call('get_group', { target_group: { group_id: UNKNOWN_ID } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('GROUP_NOT_FOUND');
    expect((await h.call('get_group', { target_group: { group_id: 'nope' } })).statusCode).toBe(
      400,
    );
  });
});

describe('group permissions', () => {
  it.each([
    ['create_group', 'groups.create', { target_group: { name: 'X' } }],
    ['get_groups', 'groups.view', {}],
    ['get_group', 'groups.view', { target_group: { group_id: ALL_USERS } }],
    ['get_users_group', 'groups.view', { target_group: { group_id: ALL_USERS } }],
    ['update_group', 'groups.modify', { target_group: { group_id: ALL_USERS, priority: 4095 } }],
    ['delete_group', 'groups.delete', { target_group: { group_id: UNKNOWN_ID } }],
  ])('%s needs %s', async (operation, permission, body) => {
    const without = await h.issueKey(['users.view', 'images.modify']);
    expect((await h.call(operation, body, without)).statusCode).toBe(403);
    const granted = await h.issueKey([permission as 'groups.view']);
    expect((await h.call(operation, body, granted)).statusCode).not.toBe(403);
  });

  it('lets a read-only key view groups but not create them', async () => {
    const readOnly = await h.issueKey(['global_admin'], { readOnly: true });
    expect((await h.call('get_groups', {}, readOnly)).statusCode).toBe(200);
    expect(
      (await h.call('create_group', { target_group: { name: 'X' } }, readOnly)).statusCode,
    ).toBe(403);
  });
});
