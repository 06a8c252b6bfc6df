import { describeInChange } from './audit-in-change';
import type { Harness } from '../harness';
import { createImage } from '../image-factories';

// update_image, delete_image and set_persistent_profile_path write their audit event in the
// workspace's own transaction (install_workspace: registries-in-change.test.ts).

const imageOf = async (h: Harness) => ({
  target_image: { image_id: await createImage(h.db, { friendlyName: 'Terminal' }) },
});
const imageIdOf = (body: Record<string, Record<string, string>>) => body.target_image.image_id;
const terminal = (h: Harness) =>
  h.db.image.findMany({
    where: { friendlyName: { in: ['Terminal', 'Console'] } },
    select: { friendlyName: true, persistentProfilePath: true },
  });

describeInChange([
  {
    operation: 'update_image',
    table: 'image',
    arrange: async (h) => ({
      target_image: { ...(await imageOf(h)).target_image, friendly_name: 'Console' },
    }),
    state: terminal,
    targetId: imageIdOf,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ friendly_name: 'Terminal' });
      expect(after).toMatchObject({ friendly_name: 'Console' });
    },
  },
  {
    operation: 'delete_image',
    table: 'image',
    arrange: imageOf,
    state: terminal,
    targetId: imageIdOf,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ friendly_name: 'Terminal' });
      expect(after).toBeNull();
    },
  },
  {
    operation: 'set_persistent_profile_path',
    table: 'image',
    arrange: async (h) => ({
      target_image: {
        ...(await imageOf(h)).target_image,
        persistent_profile_path: '/profiles/{username}',
      },
    }),
    state: terminal,
    targetId: imageIdOf,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ persistent_profile_path: '' });
      expect(after).toMatchObject({ persistent_profile_path: '/profiles/{username}' });
    },
  },
]);
