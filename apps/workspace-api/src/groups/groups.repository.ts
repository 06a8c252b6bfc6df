import { qualified, runStatement, type AuditedTransaction, type Database, type Tx } from '../db';
import type { Group } from '../generated/prisma/client';

export type GroupRow = Group;

type LockedGroup = { isSystem: boolean; name: string; permissions: string[] };

export interface GroupFields {
  name?: string;
  description?: string;
  priority?: number;
  maxKasmsPerUser?: number | null;
  permissions?: string[];
  allowClipboardUp?: boolean;
  allowClipboardDown?: boolean;
  allowUploads?: boolean;
  allowDownloads?: boolean;
  sharedSessionFullControl?: boolean;
  recordSessions?: boolean;
}

/**
 * Every query of groups, of memberships (user_group) and of Allowed Workspaces (group_image).
 * Names are unique: a taken one fails with a unique violation (isUniqueViolation), as does adding
 * a member or a workspace twice.
 */
export function createGroupsRepository(database: Database) {
  const { prisma, schema } = database;
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    /** The group and its Allowed Workspaces' ids and names, read in `tx` (its audit snapshot). */
    async withImages(tx: Tx, id: string) {
      const group = await tx.group.findUnique({
        where: { id },
        include: {
          images: {
            select: { image: { select: { id: true, name: true } } },
            // As get_images_group lists them.
            orderBy: [{ image: { friendlyName: 'asc' } }, { imageId: 'asc' }],
          },
        },
      });
      return group && { ...group, images: group.images.map(({ image }) => image) };
    },

    find: (id: string): Promise<GroupRow | null> => prisma.group.findUnique({ where: { id } }),

    list: (): Promise<GroupRow[]> =>
      prisma.group.findMany({ orderBy: [{ priority: 'asc' }, { name: 'asc' }] }),

    /** Every group by name, inside `tx` (the settings apply). */
    listByName: (tx: Tx): Promise<GroupRow[]> => tx.group.findMany({ orderBy: { name: 'asc' } }),

    create: (fields: GroupFields & { name: string }, tx?: Tx): Promise<GroupRow> =>
      (tx ?? prisma).group.create({ data: fields }),

    /**
     * Locks the group's row until `tx` ends. New memberships and list entries need a key-share
     * lock on it for their foreign key, so none can slip in between counting and deleting.
     */
    async lock(tx: Tx, id: string): Promise<LockedGroup | null> {
      const [row] = await runStatement<LockedGroup>(
        database,
        {
          text: `SELECT is_system AS "isSystem", name, COALESCE(permissions, '{}') AS permissions FROM ${qualified(schema, 'group')} WHERE id = $1::uuid FOR UPDATE`,
          values: [id],
        },
        tx,
      );
      return row ?? null;
    },

    update: (tx: Tx, id: string, fields: GroupFields): Promise<GroupRow> =>
      tx.group.update({ where: { id }, data: fields }),

    remove: async (tx: Tx, id: string) => {
      await tx.group.delete({ where: { id } });
    },

    countMembers: (id: string, tx?: Tx) =>
      (tx ?? prisma).userGroup.count({ where: { groupId: id } }),

    addMember: async (userId: string, groupId: string, tx?: Tx) => {
      await (tx ?? prisma).userGroup.create({ data: { userId, groupId } });
    },

    /** False when the user was not a member. */
    removeMember: async (userId: string, groupId: string, tx?: Tx) =>
      (await (tx ?? prisma).userGroup.deleteMany({ where: { userId, groupId } })).count > 0,

    /** The user's groups, each with whether its Allowed Workspaces hold `imageId`. */
    async ofUser(userId: string, imageId: string, tx?: Tx) {
      const rows = await (tx ?? prisma).userGroup.findMany({
        where: { userId },
        select: {
          group: {
            select: {
              id: true,
              name: true,
              priority: true,
              images: { where: { imageId }, select: { imageId: true } },
            },
          },
        },
      });
      return rows.map(({ group: { images, ...group } }) => ({
        ...group,
        imageIds: images.map((i) => i.imageId),
      }));
    },

    /** The limit set by the user's highest-priority group that sets one, or null. */
    async sessionLimit(tx: Tx, userId: string): Promise<number | null> {
      const row = await tx.userGroup.findFirst({
        where: { userId, group: { maxKasmsPerUser: { not: null } } },
        orderBy: [{ group: { priority: 'asc' } }, { group: { name: 'asc' } }],
        select: { group: { select: { maxKasmsPerUser: true } } },
      });
      return row?.group.maxKasmsPerUser ?? null;
    },

    /** What each of the user's groups says of transfers (images' effectivePolicy combines them). */
    transferRightsOf: (userId: string) =>
      prisma.group.findMany({
        where: { users: { some: { userId } } },
        select: {
          allowUploads: true,
          allowDownloads: true,
          allowClipboardUp: true,
          allowClipboardDown: true,
        },
      }),

    /** Whether any of the user's groups makes joiners of their shared sessions controllers. */
    async sharedFullControlOf(userId: string): Promise<boolean> {
      const found = await prisma.group.findFirst({
        where: { users: { some: { userId } }, sharedSessionFullControl: true },
        select: { id: true },
      });
      return found !== null;
    },

    /** Whether the user is a member of any of `groupIds`. */
    async inAnyGroup(userId: string, groupIds: string[]): Promise<boolean> {
      if (groupIds.length === 0) return false;
      const found = await prisma.group.findFirst({
        where: { id: { in: groupIds }, users: { some: { userId } } },
        select: { id: true },
      });
      return found !== null;
    },

    /** Whether any of the user's groups requires their sessions recorded. */
    async recordingRequiredFor(userId: string): Promise<boolean> {
      const row = await prisma.group.findFirst({
        where: { users: { some: { userId } }, recordSessions: true },
        select: { id: true },
      });
      return row !== null;
    },

    /** The union of the permissions of the user's groups, each once. */
    async permissionsOf(userId: string): Promise<string[]> {
      const rows = await prisma.group.findMany({
        where: { users: { some: { userId } } },
        select: { permissions: true },
      });
      return [...new Set(rows.flatMap((row) => row.permissions))].sort();
    },

    /** The workspaces on a group's Allowed Workspaces. */
    async imageIdsOf(groupId: string): Promise<string[]> {
      const rows = await prisma.groupImage.findMany({
        where: { groupId },
        select: { imageId: true },
      });
      return rows.map((row) => row.imageId);
    },

    /** The workspaces on the list of any of the user's groups. */
    async imageIdsAllowedFor(userId: string): Promise<string[]> {
      const rows = await prisma.groupImage.findMany({
        where: { group: { users: { some: { userId } } } },
        select: { imageId: true },
        distinct: ['imageId'],
      });
      return rows.map((row) => row.imageId);
    },

    /** The user's groups whose Allowed Workspaces hold `imageId`, by priority, then name. */
    granting: (imageId: string, userId: string): Promise<{ id: string; name: string }[]> =>
      prisma.group.findMany({
        where: { users: { some: { userId } }, images: { some: { imageId } } },
        select: { id: true, name: true },
        orderBy: [{ priority: 'asc' }, { name: 'asc' }],
      }),

    addImage: async (groupId: string, imageId: string, tx?: Tx) => {
      await (tx ?? prisma).groupImage.create({ data: { groupId, imageId } });
    },

    /** False when the workspace was not on the list. */
    removeImage: async (groupId: string, imageId: string, tx?: Tx) =>
      (await (tx ?? prisma).groupImage.deleteMany({ where: { groupId, imageId } })).count > 0,
  };
}
export type GroupsRepository = ReturnType<typeof createGroupsRepository>;
