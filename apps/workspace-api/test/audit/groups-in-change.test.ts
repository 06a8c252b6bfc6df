import { describeInChange } from './audit-in-change';
import { createGroup, createMember } from '../group-factories';
import type { Harness } from '../harness';
import { createImage } from '../image-factories';
import { userActions } from '../factories';

// Every write of groups, their members and their Allowed Workspaces writes its audit event in
// the change's own transaction.

const groupOf = async (h: Harness) => ({
  target_group: { group_id: (await createGroup(h)).group_id },
});
const groupNamed = (h: Harness) =>
  h.db.group.findMany({ where: { name: 'Developers' }, select: { description: true } });

/** A group and a workspace, the workspace on the group's list when `listed`. */
async function groupAndImage(h: Harness, listed: boolean) {
  const body = {
    ...(await groupOf(h)),
    target_image: { image_id: await createImage(h.db, { friendlyName: 'Terminal' }) },
  };
  if (listed) expect((await h.call('add_images_group', body)).statusCode).toBe(200);
  return body;
}
const listed = (h: Harness) => h.db.groupImage.count();

/** A group and a user, the user a member when `member`. */
async function groupAndUser(h: Harness, member: boolean) {
  const group = await groupOf(h);
  const user = member
    ? await createMember(h, group.target_group.group_id)
    : await userActions(() => h).createUser();
  return { ...group, target_user: { user_id: user.user_id } };
}
const memberships = (h: Harness) => h.db.userGroup.count();

describeInChange([
  {
    operation: 'create_group',
    table: 'group',
    arrange: async () => ({ target_group: { name: 'Made' } }),
    state: (h) => h.db.group.count({ where: { name: 'Made' } }),
    targetId: (_body, answer) => answer.group.group_id,
    snapshots: (before, after) => {
      expect(before).toBeNull();
      expect(after).toMatchObject({ name: 'Made', images: [] });
    },
  },
  {
    operation: 'update_group',
    table: 'group',
    arrange: async (h) => {
      const body = await groupOf(h);
      return { target_group: { ...body.target_group, description: 'changed' } };
    },
    state: groupNamed,
    targetId: (body) => body.target_group.group_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ description: '' });
      expect(after).toMatchObject({ description: 'changed', images: [] });
    },
  },
  {
    operation: 'delete_group',
    table: 'group',
    arrange: groupOf,
    state: groupNamed,
    targetId: (body) => body.target_group.group_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ name: 'Developers' });
      expect(after).toBeNull();
    },
  },
  {
    operation: 'add_images_group',
    table: 'group_image',
    arrange: (h) => groupAndImage(h, false),
    state: listed,
    targetId: (body) => body.target_group.group_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ images: [] });
      expect(after).toMatchObject({
        images: [expect.objectContaining({ name: expect.any(String) })],
      });
    },
  },
  {
    operation: 'remove_images_group',
    table: 'group_image',
    arrange: (h) => groupAndImage(h, true),
    state: listed,
    targetId: (body) => body.target_group.group_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ images: [expect.anything()] });
      expect(after).toMatchObject({ images: [] });
    },
  },
  {
    operation: 'add_user_group',
    table: 'user_group',
    arrange: (h) => groupAndUser(h, false),
    state: memberships,
    targetId: (body) => body.target_user.user_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ groups: [expect.objectContaining({ name: 'All Users' })] });
      expect(after).toMatchObject({
        groups: expect.arrayContaining([expect.objectContaining({ name: 'Developers' })]),
      });
    },
  },
  {
    operation: 'remove_user_group',
    table: 'user_group',
    arrange: (h) => groupAndUser(h, true),
    state: memberships,
    targetId: (body) => body.target_user.user_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({
        groups: expect.arrayContaining([expect.objectContaining({ name: 'Developers' })]),
      });
      expect(after).toMatchObject({ groups: [expect.objectContaining({ name: 'All Users' })] });
    },
  },
]);
