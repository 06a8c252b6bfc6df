import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import { isUniqueViolation, recordedChange, type AuditRecorder, type Tx } from '../db';
import {
  GroupHasMembersError,
  GroupNameTakenError,
  GroupNotFoundError,
  SystemGroupError,
} from '../errors';
import type { KeyGrant } from '../api-keys';
import { assertMayChangeMembers, assertMayChangePermissions } from './group-grants';
import { groupSnapshot } from './group-response';
import type { GroupFields, GroupRow, GroupsRepository } from './groups.repository';
import type { CreateGroupInput, GetUsersGroupBody, UpdateGroupInput } from './groups.schemas';
import type { UserRow } from '../users';

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') {
    throw withFieldErrors(new ValidationFailedError('The request is invalid'), [
      { field: 'target_group.name', message: 'must not be blank' },
    ]);
  }
  return trimmed;
}

/** What listing a group's members needs of the users feature. */
export type GroupMembers = (
  groupId: string,
  page: number,
  pageSize: number,
) => Promise<{ users: UserRow[]; total: number }>;

export function createGroupsService({
  groups,
  members,
}: {
  groups: GroupsRepository;
  members: GroupMembers;
}) {
  const snapshot = groupSnapshot(groups);
  const rethrowTaken = (name: string) => (error: unknown) => {
    throw isUniqueViolation(error) ? new GroupNameTakenError(name) : error;
  };

  async function lock(tx: Parameters<GroupsRepository['lock']>[0], groupId: string) {
    const group = await groups.lock(tx, toUuid(groupId));
    if (!group) throw new GroupNotFoundError(`group_id ${groupId}`);
    return group;
  }

  /** The group locked, as its audit event keeps it (the change locks it again: a no-op). */
  const lockedSnapshot = (groupId: string) => async (tx: Tx) => {
    await lock(tx, groupId);
    return snapshot(tx, toUuid(groupId));
  };

  async function find(groupId: string): Promise<GroupRow> {
    const group = await groups.find(toUuid(groupId));
    if (!group) throw new GroupNotFoundError(`group_id ${groupId}`);
    return group;
  }

  return {
    find,

    list: (): Promise<GroupRow[]> => groups.list(),

    /**
     * `grantor`, the caller's key or person, must hold the permissions the group grants. With
     * `audit` (here and below), the API's event is written in the change's transaction.
     */
    async create(
      input: CreateGroupInput,
      grantor?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<GroupRow> {
      const name = checkName(input.name);
      assertMayChangePermissions(grantor, [], input.permissions);
      const fields = {
        name,
        description: input.description,
        priority: input.priority,
        maxKasmsPerUser: input.max_kasms_per_user,
        permissions: input.permissions,
        ...transferRights(input),
      };
      return recordedChange(groups.transaction, audit, {
        change: (tx) => groups.create(fields, tx),
        after: (tx, group) => snapshot(tx, group.id),
      }).catch(rethrowTaken(name));
    },

    /**
     * Only the fields present change. System groups keep their names (clients know them by it).
     * Permissions granted or taken away must be held by `grantor`.
     */
    async update(
      input: UpdateGroupInput,
      grantor?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<GroupRow> {
      const name = input.name === undefined ? undefined : checkName(input.name);
      return recordedChange(groups.transaction, audit, {
        before: lockedSnapshot(input.group_id),
        change: async (tx) => {
          const group = await lock(tx, input.group_id);
          assertMayChangePermissions(grantor, group.permissions, input.permissions);
          if (group.isSystem && name !== undefined && name !== group.name) {
            throw new SystemGroupError(`The system group "${group.name}" cannot be renamed`);
          }
          return groups.update(tx, toUuid(input.group_id), {
            name,
            description: input.description,
            priority: input.priority,
            // null means "not given", as everywhere on the wire (contract §1).
            maxKasmsPerUser: input.max_kasms_per_user ?? undefined,
            permissions: input.permissions,
            ...transferRights(input),
          });
        },
        after: (tx, group) => snapshot(tx, group.id),
      }).catch(rethrowTaken(name ?? ''));
    },

    /**
     * Refuses system groups always, groups with members unless forced, and groups granting
     * permissions `grantor` lacks (deleting one takes them from its members, as removing them would).
     */
    async remove(
      groupId: string,
      force: boolean,
      grantor?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<void> {
      await recordedChange(groups.transaction, audit, {
        before: lockedSnapshot(groupId),
        change: async (tx) => {
          const group = await lock(tx, groupId);
          assertMayChangeMembers(grantor, group);
          if (group.isSystem)
            throw new SystemGroupError(`The system group "${group.name}" cannot be deleted`);
          const count = await groups.countMembers(toUuid(groupId), tx);
          if (count > 0 && !force) throw new GroupHasMembersError(String(count));
          await groups.remove(tx, toUuid(groupId));
        },
      });
    },

    async members(query: GetUsersGroupBody): Promise<{ users: UserRow[]; total: number }> {
      const group = await find(query.target_group.group_id);
      return members(group.id, query.page, query.page_size);
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;

/** Kasm's group settings on the wire, as the row keeps them (absent: unchanged or the default). */
const transferRights = (input: CreateGroupInput | UpdateGroupInput): GroupFields => ({
  allowClipboardUp: input.allow_kasm_clipboard_up,
  allowClipboardDown: input.allow_kasm_clipboard_down,
  allowUploads: input.allow_kasm_uploads,
  allowDownloads: input.allow_kasm_downloads,
  sharedSessionFullControl: input.shared_session_full_control,
  recordSessions: input.record_sessions,
});
