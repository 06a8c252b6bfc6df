import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';
import { createImage } from '../../test/image-factories';
import { ALL_USERS } from '../../test/group-factories';

const UNKNOWN = '11111111111111111111111111111111';

let h: Harness;
let userId: string;
let developers: string;
let designers: string;
let img: Record<'everyone' | 'dev' | 'design' | 'disabled' | 'both' | 'nowhere', string>;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const group = async (name: string) =>
  (await h.call('create_group', { target_group: { name } })).json().group.group_id as string;
const allow = (groupId: string, imageId: string) =>
  h.call('add_images_group', {
    target_group: { group_id: groupId },
    target_image: { image_id: imageId },
  });
const join = (groupId: string, user = userId) =>
  h.call('add_user_group', { target_user: { user_id: user }, target_group: { group_id: groupId } });
const allowedNames = async (user = userId) =>
  (await h.call('get_user_images', { target_user: { user_id: user } }))
    .json()
    .images.map((i: { friendly_name: string }) => i.friendly_name);
const check = async (imageId: string, user = userId) =>
  (
    await h.call('check_image_access', {
      target_user: { user_id: user },
      target_image: { image_id: imageId },
    })
  ).json();

// The user is in All Users and Developers, not in Designers.
beforeEach(async () => {
  await h.reset();
  userId = (await h.call('create_user', { target_user: userInput() })).json().user.user_id;
  developers = await group('Developers');
  designers = await group('Designers');
  await join(developers);
  img = {
    everyone: await createImage(h.db, { friendlyName: 'Everyone' }),
    dev: await createImage(h.db, { friendlyName: 'Dev' }),
    design: await createImage(h.db, { friendlyName: 'Design' }),
    disabled: await createImage(h.db, { friendlyName: 'Disabled', enabled: false }),
    both: await createImage(h.db, { friendlyName: 'Both' }),
    nowhere: await createImage(h.db, { friendlyName: 'Nowhere' }),
  };
  await allow(ALL_USERS, img.everyone);
  await allow(developers, img.dev);
  await allow(designers, img.design);
  await allow(developers, img.disabled);
  await allow(developers, img.both);
  await allow(designers, img.both);
});

describe('get_user_images', () => {
  it("returns exactly the enabled workspaces on the union of the user's groups' lists", async () => {
    expect(await allowedNames()).toEqual(['Both', 'Dev', 'Everyone']);
  });

  it("counts a workspace on several of the user's groups once", async () => {
    await join(designers);
    expect(await allowedNames()).toEqual(['Both', 'Design', 'Dev', 'Everyone']);
  });

  it('gives a user in All Users only what All Users allows', async () => {
    const other = (await h.call('create_user', { target_user: userInput() })).json().user.user_id;
    expect(await allowedNames(other)).toEqual(['Everyone']);
  });

  it('follows enabling and disabling a workspace', async () => {
    await h.call('update_image', { target_image: { image_id: img.dev, enabled: false } });
    await h.call('update_image', { target_image: { image_id: img.disabled, enabled: true } });
    expect(await allowedNames()).toEqual(['Both', 'Disabled', 'Everyone']);
  });

  it('drops a workspace taken off a group, keeping ones another group still allows', async () => {
    await join(designers);
    await h.call('remove_images_group', {
      target_group: { group_id: developers },
      target_image: { image_id: img.dev },
    });
    await h.call('remove_images_group', {
      target_group: { group_id: developers },
      target_image: { image_id: img.both },
    });
    expect(await allowedNames()).toEqual(['Both', 'Design', 'Everyone']);
    expect((await h.call('get_images')).json().images).toHaveLength(6);
  });

  it('drops the workspaces of a group the user leaves, or that is deleted', async () => {
    await h.call('remove_user_group', {
      target_user: { user_id: userId },
      target_group: { group_id: developers },
    });
    expect(await allowedNames()).toEqual(['Everyone']);
    await join(designers);
    await h.call('delete_group', { target_group: { group_id: designers }, force: true });
    expect(await allowedNames()).toEqual(['Everyone']);
  });

  it('drops a deleted workspace from every list', async () => {
    await h.call('delete_image', { target_image: { image_id: img.both } });
    expect(await allowedNames()).toEqual(['Dev', 'Everyone']);
    const designList = (
      await h.call('get_images_group', { target_group: { group_id: designers } })
    ).json().images;
    expect(designList.map((i: { friendly_name: string }) => i.friendly_name)).toEqual(['Design']);
  });

  it('answers 404 USER_NOT_FOUND for an unknown user', async () => {
    const res = await h.call('get_user_images', { target_user: { user_id: UNKNOWN } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('USER_NOT_FOUND');
  });
});

describe('check_image_access', () => {
  it('allows a workspace, naming the groups that grant it', async () => {
    await join(designers);
    expect(await check(img.both)).toEqual({
      allowed: true,
      reason: 'Allowed through groups "Designers", "Developers"',
      groups: [
        { group_id: designers, name: 'Designers' },
        { group_id: developers, name: 'Developers' },
      ],
    });
    expect(await check(img.everyone)).toMatchObject({
      allowed: true,
      groups: [{ group_id: ALL_USERS, name: 'All Users' }],
    });
  });

  it('refuses a disabled workspace and says so', async () => {
    expect(await check(img.disabled)).toMatchObject({
      allowed: false,
      reason: 'The workspace is disabled',
    });
  });

  it("refuses a workspace none of the user's groups allow", async () => {
    for (const image of [img.design, img.nowhere]) {
      expect(await check(image)).toEqual({
        allowed: false,
        reason: expect.stringMatching(/not on the Allowed Workspaces/),
        groups: [],
      });
    }
  });

  it('agrees with get_user_images on every workspace', async () => {
    const allowed = new Set(await allowedNames());
    const { images } = (await h.call('get_images')).json();
    for (const image of images)
      expect((await check(image.image_id)).allowed).toBe(allowed.has(image.friendly_name));
  });

  it('answers 404 for an unknown user or workspace, and 400 for a missing target_image', async () => {
    expect((await check(img.dev, UNKNOWN)).code).toBe('USER_NOT_FOUND');
    expect((await check(UNKNOWN)).code).toBe('IMAGE_NOT_FOUND');
    const res = await h.call('check_image_access', { target_user: { user_id: userId } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'target_image', message: expect.any(String) }]);
  });

  it('needs images.view', async () => {
    const key = await h.issueKey(['users.view', 'groups.view']);
    const body = { target_user: { user_id: userId }, target_image: { image_id: img.dev } };
    expect((await h.call('check_image_access', body, key)).statusCode).toBe(403);
    expect(
      (await h.call('get_user_images', { target_user: { user_id: userId } }, key)).statusCode,
    ).toBe(403);
    const viewer = await h.issueKey(['images.view'], { readOnly: true });
    expect((await h.call('check_image_access', body, viewer)).statusCode).toBe(200);
  });
});
