import { toUuid } from '@platform/schemas';
import { isUniqueViolation, recordedUpdate, type AuditRecorder, type Tx } from '../db';
import {
  GroupNotFoundError,
  ImageAlreadyInGroupError,
  ImageNotFoundError,
  ImageNotInGroupError,
} from '../errors';
import type { ImageRow, ImagesRepository } from '../images';
import { groupSnapshot } from './group-response';
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
  const snapshot = groupSnapshot(groups);
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

  /** A change to the group's list, with its event: the group (and its list) before and after. */
  const changeList = (
    groupId: string,
    audit: AuditRecorder | null | undefined,
    change: (tx: Tx) => Promise<void>,
  ) => recordedUpdate(groups.transaction, audit, (tx) => snapshot(tx, groupId), change);

  return {
    async list(groupId: string): Promise<ImageRow[]> {
      return images.among(await groups.imageIdsOf(await requireGroup(groupId)));
    },

    /**
     * The primary key decides races: of two concurrent adds, one wins and one gets 409. With
     * `audit` (here and in remove), the API's event is written in the change's transaction.
     */
    async add(target: GroupImageTarget, audit?: AuditRecorder | null): Promise<void> {
      const { groupId, imageId } = await requireBoth(target);
      await changeList(groupId, audit, (tx) => groups.addImage(groupId, imageId, tx)).catch(
        (error: unknown) => {
          throw isUniqueViolation(error) ? new ImageAlreadyInGroupError() : error;
        },
      );
    },

    async remove(target: GroupImageTarget, audit?: AuditRecorder | null): Promise<void> {
      const { groupId, imageId } = await requireBoth(target);
      await changeList(groupId, audit, async (tx) => {
        if (!(await groups.removeImage(groupId, imageId, tx))) throw new ImageNotInGroupError();
      });
    },
  };
}
export type GroupImagesService = ReturnType<typeof createGroupImagesService>;
