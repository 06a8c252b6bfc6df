import { toUuid } from '@platform/schemas';
import { isUniqueViolation } from '../db';
import {
  GroupNotFoundError,
  ImageAlreadyInGroupError,
  ImageNotFoundError,
  ImageNotInGroupError,
} from '../errors';
import type { ImageRow, ImagesRepository } from '../images';
import type { GroupsRepository } from './groups.repository';

export interface GroupImageTarget {
  groupId: string;
  imageId: string;
}

/** A group's Allowed Workspaces. Taking a workspace off a list never deletes the workspace. */
export function createGroupImagesService({
  groups,
  images,
}: {
  groups: GroupsRepository;
  images: ImagesRepository;
}) {
  async function requireGroup(groupId: string): Promise<string> {
    const group = await groups.find(toUuid(groupId));
    if (!group) throw new GroupNotFoundError(`group_id ${groupId}`);
    return group.id;
  }

  async function requireBoth({ groupId, imageId }: GroupImageTarget) {
    const [group, image] = await Promise.all([
      requireGroup(groupId),
      images.exists(toUuid(imageId)),
    ]);
    if (!image) throw new ImageNotFoundError(`image_id ${imageId}`);
    return { groupId: group, imageId: toUuid(imageId) };
  }

  return {
    async list(groupId: string): Promise<ImageRow[]> {
      return images.among(await groups.imageIdsOf(await requireGroup(groupId)));
    },

    /** The primary key decides races: of two concurrent adds, one wins and one gets 409. */
    async add(target: GroupImageTarget): Promise<void> {
      const ids = await requireBoth(target);
      await groups.addImage(ids.groupId, ids.imageId).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new ImageAlreadyInGroupError() : error;
      });
    },

    async remove(target: GroupImageTarget): Promise<void> {
      const ids = await requireBoth(target);
      if (!(await groups.removeImage(ids.groupId, ids.imageId))) throw new ImageNotInGroupError();
    },
  };
}
export type GroupImagesService = ReturnType<typeof createGroupImagesService>;
