import { UNKNOWN_ID } from '../../test/factories';
import { useHarness, type Harness } from '../../test/harness';
import { createImage } from '../../test/image-factories';
import { ALL_USERS } from '../../test/group-factories';

let h: Harness;
let groupId: string;
let imageId: string;
useHarness((ready) => (h = ready));
beforeEach(async () => {
  groupId = (await h.call('create_group', { target_group: { name: 'Developers' } })).json().group
    .group_id;
  imageId = await createImage(h.db, { friendlyName: 'Terminal' });
});

const pair = (group = groupId, image = imageId) => ({
  target_group: { group_id: group },
  target_image: { image_id: image },
});
const listOf = async (group = groupId) =>
  (await h.call('get_images_group', { target_group: { group_id: group } }))
    .json()
    .images.map((i: { friendly_name: string }) => i.friendly_name);

describe('add_images_group / get_images_group / remove_images_group', () => {
  it('adds a workspace to a group and lists it in the image shape', async () => {
    const res = await h.call('add_images_group', pair());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const { images } = (
      await h.call('get_images_group', { target_group: { group_id: groupId } })
    ).json();
    expect(images).toEqual([
      expect.objectContaining({ image_id: imageId, friendly_name: 'Terminal', enabled: true }),
    ]);
    expect(await listOf(ALL_USERS)).toEqual([]);
  });

  it('answers 409 IMAGE_ALREADY_IN_GROUP when adding twice, also concurrently', async () => {
    await h.call('add_images_group', pair());
    const again = await h.call('add_images_group', pair());
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('IMAGE_ALREADY_IN_GROUP');
    const other = await createImage(h.db);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => h.call('add_images_group', pair(groupId, other))),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
  });

  it('removes a workspace from a group without deleting the workspace', async () => {
    await h.call('add_images_group', pair());
    await h.call('add_images_group', pair(ALL_USERS));
    expect((await h.call('remove_images_group', pair())).statusCode).toBe(200);
    expect(await listOf()).toEqual([]);
    expect(await listOf(ALL_USERS)).toEqual(['Terminal']);
    expect((await h.call('get_images')).json().images).toHaveLength(1);
  });

  it('answers 404 IMAGE_NOT_IN_GROUP when removing a workspace that is not on the list', async () => {
    const res = await h.call('remove_images_group', pair());
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('IMAGE_NOT_IN_GROUP');
  });

  it('answers 404 for an unknown group or workspace on every operation', async () => {
    for (const operation of ['add_images_group', 'remove_images_group']) {
      expect((await h.call(operation, pair(UNKNOWN_ID))).json().code).toBe('GROUP_NOT_FOUND');
      expect((await h.call(operation, pair(groupId, UNKNOWN_ID))).json().code).toBe(
        'IMAGE_NOT_FOUND',
      );
    }
    expect(
      (await h.call('get_images_group', { target_group: { group_id: UNKNOWN_ID } })).statusCode,
    ).toBe(404);
  });

  it('loses its list when the group is deleted, and the workspaces stay', async () => {
    await h.call('add_images_group', pair());
    expect((await h.call('delete_group', { target_group: { group_id: groupId } })).statusCode).toBe(
      200,
    );
    expect(await h.db.groupImage.count()).toBe(0);
    expect((await h.call('get_images')).json().images).toHaveLength(1);
  });

  it('needs groups.modify to change a list and images.view to read one', async () => {
    const viewer = await h.issueKey(['images.view', 'groups.view']);
    expect((await h.call('add_images_group', pair(), viewer)).statusCode).toBe(403);
    expect(
      (await h.call('get_images_group', { target_group: { group_id: groupId } }, viewer))
        .statusCode,
    ).toBe(200);
    const modifier = await h.issueKey(['groups.modify']);
    expect((await h.call('add_images_group', pair(), modifier)).statusCode).toBe(200);
    expect((await h.call('remove_images_group', pair(), modifier)).statusCode).toBe(200);
    expect(
      (await h.call('get_images_group', { target_group: { group_id: groupId } }, modifier))
        .statusCode,
    ).toBe(403);
  });
});
