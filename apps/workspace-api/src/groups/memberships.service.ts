import { toUuid } from '@platform/schemas';
import { isUniqueViolation } from '../db';
import {
  GroupNotFoundError,
  SystemMembershipError,
  UserAlreadyInGroupError,
  UserNotInGroupError,
} from '../errors';
import type { KeyGrant } from '../api-keys';
import { assertMayChangeMembers } from './group-grants';
import type { GroupsRepository } from './groups.repository';
import { ALL_USERS_GROUP_ID } from '../domain';
import type { TargetUser } from '../api';

export interface MembershipTarget {
  user: TargetUser;
  groupId: string;
}

/** What memberships need of the users feature: its one resolver of `target_user`. */
export interface MemberLookup {
  find(target: TargetUser): Promise<{ id: string }>;
}

export function createMembershipsService({
  groups,
  users,
}: {
  groups: GroupsRepository;
  users: MemberLookup;
}) {
  async function requireBoth({ user, groupId }: MembershipTarget) {
    const [found, group] = await Promise.all([users.find(user), groups.find(toUuid(groupId))]);
    if (!group) throw new GroupNotFoundError(`group_id ${groupId}`);
    return { userId: found.id, groupId: group.id, group };
  }

  return {
    /**
     * A member holds the group's permissions: `grantor` must hold them to add or remove one.
     * The primary key decides races: of two concurrent adds, one wins and one gets 409.
     */
    async add(target: MembershipTarget, grantor?: KeyGrant): Promise<void> {
      const { userId, groupId, group } = await requireBoth(target);
      assertMayChangeMembers(grantor, group);
      await groups.addMember(userId, groupId).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new UserAlreadyInGroupError() : error;
      });
    },

    async remove(target: MembershipTarget, grantor?: KeyGrant): Promise<void> {
      const { userId, groupId, group } = await requireBoth(target);
      assertMayChangeMembers(grantor, group);
      if (groupId === ALL_USERS_GROUP_ID) throw new SystemMembershipError();
      if (!(await groups.removeMember(userId, groupId))) throw new UserNotInGroupError();
    },
  };
}
export type MembershipsService = ReturnType<typeof createMembershipsService>;
