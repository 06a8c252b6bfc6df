import { createHarness, type Harness } from '../../test/harness';
import { userInput, VALID_PASSWORD } from '../../test/factories';

// Every operation that takes target_user names the user as get_user does: by user_id, or by
// username (trimmed, any case).
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function createUser(username: string): Promise<string> {
  const res = await h.call('create_user', { target_user: userInput({ username }) });
  expect(res.statusCode).toBe(200);
  return res.json().user.user_id;
}

async function createGroup(name: string): Promise<string> {
  const res = await h.call('create_group', { target_group: { name } });
  expect(res.statusCode).toBe(200);
  return res.json().group.group_id;
}

const groupsOf = async (username: string) =>
  (await h.call('get_user', { target_user: { username } }))
    .json()
    .user.groups.map((g: { name: string }) => g.name);

describe('target_user by username', () => {
  it('update_user changes the user the username names', async () => {
    const id = await createUser('grace');
    const res = await h.call('update_user', {
      target_user: { username: ' Grace ', first_name: 'Grace', organization: 'Navy' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      user_id: id,
      username: 'grace',
      first_name: 'Grace',
      organization: 'Navy',
    });
  });

  it('update_user with user_id still renames through username', async () => {
    const id = await createUser('hopper');
    const res = await h.call('update_user', { target_user: { user_id: id, username: 'Hopper2' } });
    expect(res.json().user).toMatchObject({ user_id: id, username: 'hopper2' });
  });

  it('add_user_group and remove_user_group take the username', async () => {
    await createUser('ada');
    const group = await createGroup('engines');
    const target = { target_user: { username: 'ADA' }, target_group: { group_id: group } };
    expect((await h.call('add_user_group', target)).statusCode).toBe(200);
    expect(await groupsOf('ada')).toEqual(['All Users', 'engines']);
    expect((await h.call('add_user_group', target)).statusCode).toBe(409);
    expect((await h.call('remove_user_group', target)).statusCode).toBe(200);
    expect(await groupsOf('ada')).toEqual(['All Users']);
  });

  it('logout_user, get_login and get_attributes take the username', async () => {
    await createUser('lin');
    const signIn = await h.call(
      'authenticate',
      { username: 'lin', password: VALID_PASSWORD },
      null,
    );
    expect(signIn.statusCode).toBe(200);
    expect(await h.db.loginSession.count()).toBe(1);
    expect((await h.call('logout_user', { target_user: { username: 'Lin' } })).statusCode).toBe(
      200,
    );
    expect(await h.db.loginSession.count()).toBe(0);
    const link = await h.call('get_login', { target_user: { username: 'lin' } });
    expect(link.statusCode).toBe(200);
    expect(link.json().url).toEqual(expect.any(String));
    const attributes = await h.call('get_attributes', { target_user: { username: 'lin' } });
    expect(attributes.statusCode).toBe(200);
  });

  it('get_user_images, check_image_access and get_launch_plan take the username', async () => {
    await createUser('mary');
    const images = await h.call('get_user_images', { target_user: { username: 'Mary' } });
    expect(images.statusCode).toBe(200);
    expect(images.json()).toEqual({ images: [] });
    // The user is found by name; the workspace is what is missing.
    const image = { target_image: { image_id: '0123456789abcdef0123456789abcdef' } };
    for (const operation of ['check_image_access', 'get_launch_plan']) {
      const known = await h.call(operation, { target_user: { username: 'mary' }, ...image });
      expect(known.json().code).toBe('IMAGE_NOT_FOUND');
      const unknown = await h.call(operation, { target_user: { username: 'nobody' }, ...image });
      expect(unknown.json().code).toBe('USER_NOT_FOUND');
    }
  });

  it('delete_user takes the username', async () => {
    await createUser('gone');
    expect((await h.call('delete_user', { target_user: { username: 'gone' } })).statusCode).toBe(
      200,
    );
    expect((await h.call('get_user', { target_user: { username: 'gone' } })).statusCode).toBe(404);
  });

  it.each(['update_user', 'delete_user', 'add_user_group', 'logout_user', 'get_login'])(
    '%s answers 404 USER_NOT_FOUND for an unknown username and 400 without user_id or username',
    async (operation) => {
      const group = { target_group: { group_id: '68d557ac4cac42cca9f31c7c853de0f3' } };
      const unknown = await h.call(operation, { target_user: { username: 'nobody' }, ...group });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('USER_NOT_FOUND');
      const neither = await h.call(operation, { target_user: {}, ...group });
      expect(neither.statusCode).toBe(400);
    },
  );
});
