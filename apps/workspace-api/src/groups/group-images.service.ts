import { isUniqueViolation } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { Db } from '../db';
import {
  GroupNotFoundError,
  ImageAlreadyInGroupError,
  ImageNotFoundError,
  ImageNotInGroupError,
} from '../errors';
import type { Image } from '../generated/prisma/client';

export interface GroupImageTarget {
  groupId: string;
  imageId: string;
}

/** A group's Allowed Workspaces. Taking a workspace off a list never deletes the workspace. */
export function createGroupImagesService({ db }: { db: Db }) {
  async function requireGroup(groupId: string): Promise<string> {
    const group = await db.group.findUnique({
      where: { id: toUuid(groupId) },
      select: { id: true },
    });
    if (!group) throw new GroupNotFoundError(`group_id ${groupId}`);
    return group.id;
  }

  async function requireBoth({ groupId, imageId }: GroupImageTarget) {
    const [group, image] = await Promise.all([
      requireGroup(groupId),
      db.image.findUnique({ where: { id: toUuid(imageId) }, select: { id: true } }),
    ]);
    if (!image) throw new ImageNotFoundError(`image_id ${imageId}`);
    return { groupId: group, imageId: image.id };
  }

  return {
    async list(groupId: string): Promise<Image[]> {
      const id = await requireGroup(groupId);
      return db.image.findMany({
        where: { groups: { some: { groupId: id } } },
        orderBy: [{ friendlyName: 'asc' }, { id: 'asc' }],
      });
    },

    /** The primary key decides races: of two concurrent adds, one wins and one gets 409. */
    async add(target: GroupImageTarget): Promise<void> {
      const ids = await requireBoth(target);
      await db.groupImage.create({ data: ids }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new ImageAlreadyInGroupError() : error;
      });
    },

    async remove(target: GroupImageTarget): Promise<void> {
      const ids = await requireBoth(target);
      const { count } = await db.groupImage.deleteMany({ where: ids });
      if (count === 0) throw new ImageNotInGroupError();
    },
  };
}
export type GroupImagesService = ReturnType<typeof createGroupImagesService>;
