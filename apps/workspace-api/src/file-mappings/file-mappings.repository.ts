import { orNullWhenMissing, type AuditedTransaction, type Database, type Tx } from '../db';
import type { FileMapping } from '../generated/prisma/client';
import { targetColumns, type MappingTarget } from './mapping-target';

export type FileMappingRow = FileMapping;
/** A row without its content, as a page lists it first. */
export type ListedFileMapping = Omit<FileMappingRow, 'content'>;

/** Where a page starts: after this (destination, id), the list's order. */
export interface PagePosition {
  destination: string;
  id: string;
}

export interface FileMappingFields {
  name?: string;
  description?: string;
  destination?: string;
  executable?: boolean;
  content?: string;
}
export type NewFileMapping = FileMappingFields & { name: string; destination: string };

const ORDER = [{ destination: 'asc' }, { id: 'asc' }] as const;

/**
 * Every query of file mappings. A second mapping of one target to one destination fails with a
 * unique violation, a target that does not exist with a foreign-key violation
 * (db/database-errors.ts). Writes given a `tx` join that transaction (the settings apply).
 */
export function createFileMappingsRepository(database: Database) {
  const { prisma } = database;
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    /** Every mapping, or those of one target. */
    list: (target: MappingTarget | null = null, tx?: Tx): Promise<FileMappingRow[]> =>
      (tx ?? prisma).fileMapping.findMany({
        where: target ? targetColumns(target) : {},
        orderBy: [...ORDER],
      }),

    /** Up to `limit` mappings after `after` in the list's order, without their contents. */
    listPage: (
      target: MappingTarget | null,
      after: PagePosition | null,
      limit: number,
    ): Promise<ListedFileMapping[]> =>
      prisma.fileMapping.findMany({
        where: {
          ...(target ? targetColumns(target) : {}),
          ...(after && {
            OR: [
              { destination: { gt: after.destination } },
              { destination: after.destination, id: { gt: after.id } },
            ],
          }),
        },
        omit: { content: true },
        orderBy: [...ORDER],
        take: limit,
      }),

    /** One mapping's content; null when it is gone. */
    contentOf: async (id: string): Promise<string | null> =>
      (await prisma.fileMapping.findUnique({ where: { id }, select: { content: true } }))
        ?.content ?? null,

    /** The mappings of a workspace, of a user and of any of some groups: what a launch merges. */
    forLaunch: (
      of: { imageId: string; userId: string; groupIds: string[] },
      tx?: Tx,
    ): Promise<FileMappingRow[]> =>
      (tx ?? prisma).fileMapping.findMany({
        where: {
          OR: [{ imageId: of.imageId }, { userId: of.userId }, { groupId: { in: of.groupIds } }],
        },
      }),

    find: (id: string, tx?: Tx): Promise<FileMappingRow | null> =>
      (tx ?? prisma).fileMapping.findUnique({ where: { id } }),

    create: (target: MappingTarget, fields: NewFileMapping, tx?: Tx): Promise<FileMappingRow> =>
      (tx ?? prisma).fileMapping.create({ data: { ...targetColumns(target), ...fields } }),

    /** Null when no mapping has the id. */
    update: (id: string, fields: FileMappingFields, tx?: Tx): Promise<FileMappingRow | null> =>
      orNullWhenMissing((tx ?? prisma).fileMapping.update({ where: { id }, data: fields })),

    /** False when no mapping has the id. */
    remove: async (id: string, tx?: Tx): Promise<boolean> =>
      (await (tx ?? prisma).fileMapping.deleteMany({ where: { id } })).count > 0,
  };
}
export type FileMappingsRepository = ReturnType<typeof createFileMappingsRepository>;
