import { isUniqueViolation } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { Db } from '../db';
import {
  GroupNotFoundError,
  SystemMembershipError,
  UserAlreadyInGroupError,
  UserNotFoundError,
  UserNotInGroupError,
} from '../errors';
import { ALL_USERS_GROUP_ID } from './system-groups';

export interface MembershipTarget {
  userId: string;
  groupId: string;
}

export function createMembershipsService({ db }: { db: Db }) {
  async function requireBoth({ userId, groupId }: MembershipTarget) {
    const [user, group] = await Promise.all([
      db.user.findUnique({ where: { id: toUuid(userId) }, select: { id: true } }),
      db.group.findUnique({ where: { id: toUuid(groupId) }, select: { id: true } }),
    ]);
    if (!user) throw new UserNotFoundError(`user_id ${userId}`);
    if (!group) throw new GroupNotFoundError(`group_id ${groupId}`);
    return { userId: user.id, groupId: group.id };
  }

  return {
    /** The primary key decides races: of two concurrent adds, one wins and one gets 409. */
    async add(target: MembershipTarget): Promise<void> {
      const ids = await requireBoth(target);
      await db.userGroup.create({ data: ids }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new UserAlreadyInGroupError() : error;
      });
    },

    async remove(target: MembershipTarget): Promise<void> {
      const ids = await requireBoth(target);
      if (ids.groupId === ALL_USERS_GROUP_ID) throw new SystemMembershipError();
      const { count } = await db.userGroup.deleteMany({ where: ids });
      if (count === 0) throw new UserNotInGroupError();
    },
  };
}
export type MembershipsService = ReturnType<typeof createMembershipsService>;
