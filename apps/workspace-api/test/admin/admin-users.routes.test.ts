import { createHarness, type Harness } from '../harness';
import { ADMINISTRATORS, createGroup, createMember } from '../group-factories';
import { VALID_PASSWORD } from '../factories';
import { signedInWith, submit } from './admin-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const userNamed = async (username: string) =>
  (await h.call('get_user', { target_user: { username } })).json().user;

describe('the Users section', () => {
  it('creates a user with every field, through the users service', async () => {
    const { client } = await signedInWith(h, ['global_admin']);
    const res = await submit(client, '/admin/users', '/admin/users/create', {
      username: 'New.Person',
      password: VALID_PASSWORD,
      first_name: 'New',
      last_name: 'Person',
      phone: '123',
      organization: 'Org',
      notes: 'Some notes',
      disabled: 'on',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/admin\/users\/[0-9a-f]{32}\?done=created$/);
    const user = await userNamed('new.person');
    expect(user).toMatchObject({
      first_name: 'New',
      last_name: 'Person',
      phone: '123',
      organization: 'Org',
      notes: 'Some notes',
      locked: false,
      disabled: true,
    });
    const page = await client.get(res.headers.location as string);
    expect(page.body).toContain('The user was created.');
  });

  it("warns when the new user's name belonged to a deleted user, whose profile folders were kept", async () => {
    const { client } = await signedInWith(h, ['global_admin']);
    const old = (await h.call('create_user', { target_user: { username: 'Reused' } })).json().user;
    expect(
      (await h.call('delete_user', { target_user: { user_id: old.user_id }, force: true }))
        .statusCode,
    ).toBe(200);
    const res = await submit(client, '/admin/users', '/admin/users/create', { username: 'reused' });
    expect(res.headers.location).toMatch(/\?done=created_reused$/);
    const page = await client.get(res.headers.location as string);
    expect(page.body).toContain('A user of this name was deleted before');
    expect(page.body).toContain('PROFILE_ROOT');

    const fresh = await submit(client, '/admin/users', '/admin/users/create', {
      username: 'fresh',
    });
    expect(fresh.headers.location).toMatch(/\?done=created$/);
  });

  it('searches usernames and pages through them with a cursor', async () => {
    const { client } = await signedInWith(h, ['users.view']);
    for (let i = 0; i < 55; i++) {
      await h.call('create_user', {
        target_user: { username: `pager-${String(i).padStart(2, '0')}` },
      });
    }
    const first = await client.get('/admin/users?q=pager');
    expect(first.body).toContain('55 users match.');
    expect(first.body).toContain('pager-00');
    expect(first.body).not.toContain('pager-50');
    const next = /href="(\/admin\/users\?cursor=[^"]+)"/.exec(first.body)?.[1] as string;
    const second = await client.get(next.replace(/&amp;/g, '&'));
    expect(second.body).toContain('pager-50');
    expect(second.body).not.toContain('pager-00');
    // Without users.create the form is not there.
    expect(first.body).not.toContain('/admin/users/create');
  });

  it('edits, locks, sets a password and refuses one breaking the rules', async () => {
    const { client } = await signedInWith(h, ['global_admin']);
    const user = await createMember(h, (await createGroup(h, { name: 'G' })).group_id, 'carol');
    const page = `/admin/users/${user.user_id}`;
    const saved = await submit(client, page, `${page}/update`, {
      username: 'carol2',
      first_name: 'Carol',
      last_name: 'C',
      phone: '',
      organization: 'Acme',
      notes: '',
      locked: 'on',
    });
    expect(saved.statusCode).toBe(303);
    expect(await userNamed('carol2')).toMatchObject({
      organization: 'Acme',
      locked: true,
      disabled: false,
    });
    const weak = await submit(client, page, `${page}/password`, { password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('at least 8 characters');
    const strong = await submit(client, page, `${page}/password`, { password: 'An0ther-pass' });
    expect(strong.statusCode).toBe(303);
  });

  it('checks the password rules as one types', async () => {
    const { client } = await signedInWith(h, ['users.view']);
    await client.get('/admin/users');
    const res = await h.inject({
      method: 'POST',
      url: '/admin/users/password-rules',
      headers: {
        cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': client.csrf(),
      },
      payload: { password: 'abc' },
    });
    expect(res.json().unmet).toEqual(['min_length', 'uppercase', 'digit', 'special']);
  });

  it('adds to and removes from groups, and refuses a group granting more than the person holds', async () => {
    const { client } = await signedInWith(h, ['users.view', 'groups.view', 'groups.modify']);
    const user = await createMember(h, (await createGroup(h, { name: 'Start' })).group_id, 'dave');
    const team = await createGroup(h, { name: 'Team' });
    const admins = await createGroup(h, { name: 'Keys', permissions: ['api_keys.modify'] });
    const page = `/admin/users/${user.user_id}`;
    expect(
      (await submit(client, page, `${page}/groups/join`, { group_id: team.group_id })).statusCode,
    ).toBe(303);
    expect((await userNamed('dave')).groups.map((g: { name: string }) => g.name)).toContain('Team');
    const refused = await submit(client, page, `${page}/groups/join`, {
      group_id: admins.group_id,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('api_keys.modify');
    expect(
      (await submit(client, page, `${page}/groups/leave`, { group_id: team.group_id })).statusCode,
    ).toBe(303);
    expect((await userNamed('dave')).groups.map((g: { name: string }) => g.name)).not.toContain(
      'Team',
    );
  });

  it('makes a one-time sign-in link that signs the user in', async () => {
    const { client } = await signedInWith(h, ['users.view', 'users.auth_session']);
    const user = await createMember(h, (await createGroup(h, { name: 'G' })).group_id, 'erin');
    const page = `/admin/users/${user.user_id}`;
    const res = await submit(client, page, `${page}/login-link`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/http:\/\/localhost(:\d+)?\/sign-in\/link\/[\w-]+/);
  });

  it('refuses an edit by a person holding only users.view', async () => {
    const { client } = await signedInWith(h, ['users.view']);
    const user = await createMember(h, (await createGroup(h, { name: 'G' })).group_id, 'frank');
    const page = `/admin/users/${user.user_id}`;
    const view = await client.get(page);
    expect(view.body).not.toContain(`${page}/update`);
    const res = await submit(client, page, `${page}/update`, { username: 'hacked' });
    expect(res.statusCode).toBe(403);
    expect(await userNamed('frank')).toBeTruthy();
  });

  it('refuses a person holding users.* but not global_admin a sign-in link, an edit or a password for an administrator', async () => {
    const person = ['users.view', 'users.modify', 'users.auth_session'];
    const { client } = await signedInWith(h, person);
    const admin = await createMember(h, ADMINISTRATORS, 'root-admin');
    const before = await h.db.user.findUniqueOrThrow({ where: { username: 'root-admin' } });
    const page = `/admin/users/${admin.user_id}`;
    const link = await submit(client, page, `${page}/login-link`);
    expect(link.statusCode).toBe(403);
    expect(link.body).toContain('global_admin');
    expect(await h.db.loginLink.count()).toBe(0);
    const edit = await submit(client, page, `${page}/update`, {
      username: 'root-admin',
      locked: 'on',
    });
    expect(edit.statusCode).toBe(403);
    const password = await submit(client, page, `${page}/password`, { password: 'An0ther-pass' });
    expect(password.statusCode).toBe(403);
    const after = await h.db.user.findUniqueOrThrow({ where: { username: 'root-admin' } });
    expect(after).toMatchObject({ locked: false, passwordHash: before.passwordHash });
  });
});
