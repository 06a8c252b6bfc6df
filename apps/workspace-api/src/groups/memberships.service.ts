import { toUuid } from '@platform/schemas';
import { isUniqueViolation, recordedUpdate, type AuditRecorder, type Tx } from '../db';
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

/**
 * What memberships need of the users feature: its one resolver of `target_user`, and a user as
 * the audit trail keeps them (a membership's event is the user's, before and after).
 */
export interface MemberLookup {
  find(target: TargetUser): Promise<{ id: string }>;
  snapshot(userId: string, tx: Tx): Promise<object | null>;
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

  /** A change to the user's memberships, with its event: the user before and after. */
  const changeMembership = (
    userId: string,
    audit: AuditRecorder | null | undefined,
    change: (tx: Tx) => Promise<void>,
  ) => recordedUpdate(groups.transaction, audit, (tx) => users.snapshot(userId, tx), change);

  return {
    /**
     * A member holds the group's permissions: `grantor` must hold them to add or remove one.
     * The primary key decides races: of two concurrent adds, one wins and one gets 409. With
     * `audit` (here and in remove), the API's event is written in the change's transaction.
     */
    async add(target: MembershipTarget, grantor?: KeyGrant, audit?: AuditRecorder | null) {
      const { userId, groupId, group } = await requireBoth(target);
      assertMayChangeMembers(grantor, group);
      await changeMembership(userId, audit, (tx) => groups.addMember(userId, groupId, tx)).catch(
        (error: unknown) => {
          throw isUniqueViolation(error) ? new UserAlreadyInGroupError() : error;
        },
      );
    },

    async remove(target: MembershipTarget, grantor?: KeyGrant, audit?: AuditRecorder | null) {
      const { userId, groupId, group } = await requireBoth(target);
      assertMayChangeMembers(grantor, group);
      if (groupId === ALL_USERS_GROUP_ID) throw new SystemMembershipError();
      await changeMembership(userId, audit, async (tx) => {
        if (!(await groups.removeMember(userId, groupId, tx))) throw new UserNotInGroupError();
      });
    },
  };
}
export type MembershipsService = ReturnType<typeof createMembershipsService>;
