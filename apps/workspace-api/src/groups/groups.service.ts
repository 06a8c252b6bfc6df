import { isUniqueViolation, ValidationFailedError, withFieldErrors } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { Config } from '../config';
import type { Db } from '../db';
import {
  GroupHasMembersError,
  GroupNameTakenError,
  GroupNotFoundError,
  SystemGroupError,
} from '../errors';
import { Prisma, type Group } from '../generated/prisma/client';
import { USER_WITH_GROUPS, type UserWithGroups } from '../users/user-response';
import type { CreateGroupInput, GetUsersGroupBody, UpdateGroupInput } from './groups.schemas';

type Tx = Prisma.TransactionClient;

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') {
    throw withFieldErrors(new ValidationFailedError('The request is invalid'), [
      { field: 'target_group.name', message: 'must not be blank' },
    ]);
  }
  return trimmed;
}

export function createGroupsService({
  db,
  config,
}: {
  db: Db;
  config: Pick<Config, 'DATABASE_SCHEMA'>;
}) {
  const groupTable = Prisma.raw(`"${config.DATABASE_SCHEMA}"."group"`);
  const rethrowTaken = (name: string) => (error: unknown) => {
    throw isUniqueViolation(error) ? new GroupNameTakenError(name) : error;
  };

  /**
   * Locks the group's row until the transaction ends. New memberships and list entries need a
   * key-share lock on it for their foreign key, so none can slip in between counting and deleting.
   */
  async function lockGroup(tx: Tx, groupId: string): Promise<{ isSystem: boolean; name: string }> {
    const rows = await tx.$queryRaw<{ is_system: boolean; name: string }[]>`
      SELECT is_system, name FROM ${groupTable} WHERE id = ${toUuid(groupId)}::uuid FOR UPDATE`;
    if (rows.length === 0) throw new GroupNotFoundError(`group_id ${groupId}`);
    return { isSystem: rows[0].is_system, name: rows[0].name };
  }

  async function find(groupId: string): Promise<Group> {
    const group = await db.group.findUnique({ where: { id: toUuid(groupId) } });
    if (!group) throw new GroupNotFoundError(`group_id ${groupId}`);
    return group;
  }

  return {
    find,

    list: (): Promise<Group[]> =>
      db.group.findMany({ orderBy: [{ priority: 'asc' }, { name: 'asc' }] }),

    async create(input: CreateGroupInput): Promise<Group> {
      const name = checkName(input.name);
      return db.group
        .create({
          data: {
            name,
            description: input.description,
            priority: input.priority,
            maxKasmsPerUser: input.max_kasms_per_user,
          },
        })
        .catch(rethrowTaken(name));
    },

    /** Only the fields present change. System groups keep their names (clients know them by it). */
    async update(input: UpdateGroupInput): Promise<Group> {
      const name = input.name === undefined ? undefined : checkName(input.name);
      return db
        .$transaction(async (tx) => {
          const group = await lockGroup(tx, input.group_id);
          if (group.isSystem && name !== undefined && name !== group.name) {
            throw new SystemGroupError(`The system group "${group.name}" cannot be renamed`);
          }
          const data = {
            name,
            description: input.description,
            priority: input.priority,
            // null means "not given", as everywhere on the wire (contract §1).
            maxKasmsPerUser: input.max_kasms_per_user ?? undefined,
          };
          return tx.group.update({ where: { id: toUuid(input.group_id) }, data });
        })
        .catch(rethrowTaken(name ?? ''));
    },

    /** Refuses system groups always, and groups with members unless forced. */
    async remove(groupId: string, force: boolean): Promise<void> {
      await db.$transaction(async (tx) => {
        const group = await lockGroup(tx, groupId);
        if (group.isSystem)
          throw new SystemGroupError(`The system group "${group.name}" cannot be deleted`);
        const members = await tx.userGroup.count({ where: { groupId: toUuid(groupId) } });
        if (members > 0 && !force) throw new GroupHasMembersError(String(members));
        await tx.group.delete({ where: { id: toUuid(groupId) } });
      });
    },

    async members(query: GetUsersGroupBody): Promise<{ users: UserWithGroups[]; total: number }> {
      const group = await find(query.target_group.group_id);
      const where = { groups: { some: { groupId: group.id } } } satisfies Prisma.UserWhereInput;
      const [users, total] = await Promise.all([
        db.user.findMany({
          where,
          include: USER_WITH_GROUPS,
          orderBy: [{ username: 'asc' }, { id: 'asc' }],
          skip: query.page * query.page_size,
          take: query.page_size,
        }),
        db.user.count({ where }),
      ]);
      return { users, total };
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
