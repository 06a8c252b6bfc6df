import { createHarness, type Harness } from '../harness';
import { ADMINISTRATORS, createGroup } from '../group-factories';
import { createImage } from '../image-factories';
import { signedInWith, submit } from './admin-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const groupOf = async (group_id: string) =>
  (await h.call('get_group', { target_group: { group_id } })).json().group;

describe('the Groups section', () => {
  it('creates a group with its priority, session limit and permissions', async () => {
    const { client } = await signedInWith(h, ['global_admin']);
    const res = await submit(client, '/admin/groups', '/admin/groups/create', {
      name: 'Support',
      description: 'Helps people',
      priority: '20',
      max_kasms_per_user: '3',
      'permission:users.view': 'on',
      'permission:sessions.view': 'on',
    });
    expect(res.statusCode).toBe(303);
    const id = /\/admin\/groups\/([0-9a-f]{32})/.exec(
      res.headers.location as string,
    )?.[1] as string;
    expect(await groupOf(id)).toMatchObject({
      name: 'Support',
      description: 'Helps people',
      priority: 20,
      max_kasms_per_user: 3,
      permissions: ['users.view', 'sessions.view'],
    });
  });

  it('refuses a priority that is not a number with 400 naming it', async () => {
    const { client } = await signedInWith(h, ['global_admin']);
    const res = await submit(client, '/admin/groups', '/admin/groups/create', {
      name: 'Bad',
      priority: 'high',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('priority: must be a whole number');
  });

  it('adds members and Allowed Workspaces, and keeps permissions the person may not change', async () => {
    const { client } = await signedInWith(h, ['groups.view', 'groups.modify', 'images.view']);
    const group = await createGroup(h, { name: 'Team' });
    await h.call('create_user', { target_user: { username: 'gina' } });
    const imageId = await createImage(h.db, { friendlyName: 'Terminal' });
    const page = `/admin/groups/${group.group_id}`;
    expect(
      (await submit(client, page, `${page}/members/add`, { username: 'gina' })).statusCode,
    ).toBe(303);
    const added = await submit(client, page, `${page}/workspaces/add`, {
      image_id: imageId.replace(/-/g, ''),
    });
    expect(added.statusCode).toBe(303);
    const shown = await client.get(page);
    expect(shown.body).toContain('gina');
    expect(shown.body).toContain('Terminal');
    // settings.view is not the person's: its box is disabled and a hidden field keeps it.
    await h.call('update_group', {
      target_group: { group_id: group.group_id, permissions: ['settings.view'] },
    });
    const saved = await submit(client, page, `${page}/update`, {
      name: 'Team',
      priority: '100',
      'permission:settings.view': 'on',
      'permission:groups.view': 'on',
    });
    expect(saved.statusCode).toBe(303);
    expect((await groupOf(group.group_id)).permissions).toEqual(['groups.view', 'settings.view']);
    const escalate = await submit(client, page, `${page}/update`, {
      name: 'Team',
      'permission:global_admin': 'on',
    });
    expect(escalate.statusCode).toBe(403);
    expect((await groupOf(group.group_id)).permissions).not.toContain('global_admin');
  });

  it('never lets a person without global_admin join someone to Administrators', async () => {
    const { client } = await signedInWith(h, ['groups.view', 'groups.modify']);
    await h.call('create_user', { target_user: { username: 'mallory' } });
    const page = `/admin/groups/${ADMINISTRATORS}`;
    const res = await submit(client, page, `${page}/members/add`, { username: 'mallory' });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a person without global_admin the deletion of a group granting it, which stays', async () => {
    const { client } = await signedInWith(h, ['groups.view', 'groups.delete']);
    const powerful = await createGroup(h, { name: 'Root-like', permissions: ['global_admin'] });
    const page = `/admin/groups/${powerful.group_id}`;
    const res = await submit(client, page, `${page}/delete`);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('global_admin');
    expect(await h.db.group.count({ where: { name: 'Root-like' } })).toBe(1);
  });
});

describe('the API keys section', () => {
  it('issues a key with the picked permissions, shows the secret once, and revokes it', async () => {
    const { client } = await signedInWith(h, ['api_keys.modify', 'users.view']);
    const res = await submit(client, '/admin/api-keys', '/admin/api-keys/create', {
      name: 'reporting',
      'permission:users.view': 'on',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const key = /id="issued-key">([^<]+)</.exec(res.body)?.[1] as string;
    const secret = /id="issued-secret">([^<]+)</.exec(res.body)?.[1] as string;
    const credentials = { api_key: key, api_key_secret: secret };
    expect((await h.call('get_users', {}, credentials)).statusCode).toBe(200);
    const list = await client.get('/admin/api-keys');
    expect(list.body).toContain('reporting');
    expect(list.body).not.toContain(secret);
    const row = list.body.slice(list.body.indexOf('reporting'));
    const id = /\/admin\/api-keys\/([0-9a-f]{32})\/revoke/.exec(row)?.[1] as string;
    const revoked = await submit(client, '/admin/api-keys', `/admin/api-keys/${id}/revoke`);
    expect(revoked.statusCode).toBe(303);
    expect((await h.call('get_users', {}, credentials)).statusCode).toBe(401);
  });

  it('refuses a key with permissions the person lacks', async () => {
    const { client } = await signedInWith(h, ['api_keys.modify']);
    const res = await submit(client, '/admin/api-keys', '/admin/api-keys/create', {
      name: 'too much',
      'permission:global_admin': 'on',
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('global_admin');
  });
});
