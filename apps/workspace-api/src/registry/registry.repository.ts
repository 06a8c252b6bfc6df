import type { AuditedTransaction, Database, Tx } from '../db';
import type { Prisma, Registry } from '../generated/prisma/client';
import { diffEntries, type EntryDiff } from './registry-diff';
import type { WorkspaceEntry } from './registry-list';

/** A registry with how many entries it holds: the one shape every registry query returns. */
export type RegistryRow = Registry & { _count: { entries: number } };

/** What a fetch of the registry's list sets. */
export interface RegistryFields {
  name: string;
  description: string;
  icon: string;
  listUrl: string;
  contactUrl: string;
  schemaVersion: string;
  invalidEntries: unknown;
  fetchedAt: Date;
}

/** A stored entry: the workspace as the registry lists it, under its name. */
export interface EntryRow {
  name: string;
  entry: WorkspaceEntry;
}

const WITH_COUNT = { _count: { select: { entries: true } } } as const;
const json = (value: unknown) => value as Prisma.InputJsonValue;
const entryRow = (entry: WorkspaceEntry) => ({ name: entry.name, data: json(entry) });
const columns = (fields: RegistryFields) => ({
  ...fields,
  invalidEntries: json(fields.invalidEntries),
});
const asEntry = (row: { name: string; data: unknown }): EntryRow => ({
  name: row.name,
  entry: row.data as WorkspaceEntry,
});

/**
 * Every query of registries and their stored entries. URLs are unique: adding one twice fails
 * with a unique violation (isUniqueViolation).
 */
export function createRegistryRepository(database: Database) {
  const { prisma } = database;
  // Large registries change hundreds of rows; Prisma's 5 s default is too tight for that.
  const transaction: AuditedTransaction = (work, options) =>
    database.transaction(work, { timeout: 30_000, ...options });
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    find: (id: string, tx?: Tx): Promise<RegistryRow | null> =>
      (tx ?? prisma).registry.findUnique({ where: { id }, include: WITH_COUNT }),

    exists: async (id: string): Promise<boolean> =>
      (await prisma.registry.findUnique({ where: { id }, select: { id: true } })) !== null,

    /** Where each of these registries is and which schema its list follows, by id. */
    async sourcesOf(
      ids: readonly string[],
    ): Promise<Map<string, { url: string; schemaVersion: string }>> {
      const rows = await prisma.registry.findMany({
        where: { id: { in: [...ids] } },
        select: { id: true, url: true, schemaVersion: true },
      });
      return new Map(rows.map(({ id, ...source }) => [id, source]));
    },

    hasUrl: async (url: string): Promise<boolean> =>
      (await prisma.registry.findUnique({ where: { url }, select: { id: true } })) !== null,

    list: (): Promise<RegistryRow[]> =>
      prisma.registry.findMany({
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        include: WITH_COUNT,
      }),

    create: (
      url: string,
      fields: RegistryFields,
      entries: WorkspaceEntry[],
      tx?: Tx,
    ): Promise<RegistryRow> =>
      (tx ?? prisma).registry.create({
        data: { url, ...columns(fields), entries: { createMany: { data: entries.map(entryRow) } } },
        include: WITH_COUNT,
      }),

    /** Replaces the stored entries with `entries` in `tx`, and says what changed. */
    async refresh(
      tx: Tx,
      id: string,
      fields: RegistryFields,
      entries: WorkspaceEntry[],
    ): Promise<EntryDiff & { registry: RegistryRow }> {
      const before = await tx.registryEntry.findMany({
        where: { registryId: id },
        select: { name: true, data: true },
      });
      const diff = diffEntries(before, entries);
      const byName = new Map(entries.map((entry) => [entry.name, entry]));
      await tx.registryEntry.deleteMany({
        where: { registryId: id, name: { in: diff.removed } },
      });
      const added = diff.added.map((name) => ({
        registryId: id,
        ...entryRow(byName.get(name) as WorkspaceEntry),
      }));
      await tx.registryEntry.createMany({ data: added });
      for (const name of diff.changed) {
        await tx.registryEntry.update({
          where: { registryId_name: { registryId: id, name } },
          data: { data: json(byName.get(name)) },
        });
      }
      const registry = await tx.registry.update({
        where: { id },
        data: columns(fields),
        include: WITH_COUNT,
      });
      return { registry, ...diff };
    },

    /** False when no registry has the id. Its entries go with it (the foreign key cascades). */
    remove: async (id: string, tx?: Tx): Promise<boolean> =>
      (await (tx ?? prisma).registry.deleteMany({ where: { id } })).count > 0,

    async entries(registryId: string): Promise<EntryRow[]> {
      const rows = await prisma.registryEntry.findMany({
        where: { registryId },
        orderBy: { name: 'asc' },
      });
      return rows.map(asEntry);
    },

    async entry(registryId: string, name: string): Promise<EntryRow | null> {
      const row = await prisma.registryEntry.findUnique({
        where: { registryId_name: { registryId, name } },
      });
      return row && asEntry(row);
    },
  };
}
export type RegistryRepository = ReturnType<typeof createRegistryRepository>;
