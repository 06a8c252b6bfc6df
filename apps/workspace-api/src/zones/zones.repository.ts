import { orNullWhenMissing, type AuditedTransaction, type Database, type Tx } from '../db';
import type { Zone } from '../generated/prisma/client';

export type ZoneRow = Zone;

export interface ZoneFields {
  name: string;
  proxyHostname: string;
  proxyPath?: string;
  proxyPort?: number;
}

/**
 * Every query of zones (`zone`); how many agents each has is the agents repository's to say. A
 * taken name fails with a unique violation (isUniqueViolation); deleting
 * a zone that still has agents, with a foreign-key violation (isForeignKeyViolation). Writes
 * given a `tx` join that transaction (the settings apply).
 */
export function createZonesRepository(database: Database) {
  const { prisma } = database;
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    find: (id: string, tx?: Tx): Promise<ZoneRow | null> =>
      (tx ?? prisma).zone.findUnique({ where: { id } }),

    list: (tx?: Tx): Promise<ZoneRow[]> =>
      (tx ?? prisma).zone.findMany({ orderBy: { name: 'asc' } }),

    /** The names of these zones, by id. */
    async namesOf(ids: readonly string[], tx?: Tx): Promise<Map<string, string>> {
      const rows = await (tx ?? prisma).zone.findMany({
        where: { id: { in: [...ids] } },
        select: { id: true, name: true },
      });
      return new Map(rows.map((zone) => [zone.id, zone.name]));
    },

    create: (fields: ZoneFields, tx?: Tx): Promise<ZoneRow> =>
      (tx ?? prisma).zone.create({ data: fields }),

    /** Null when no zone has the id. */
    update: (id: string, fields: Partial<ZoneFields>, tx?: Tx): Promise<ZoneRow | null> =>
      orNullWhenMissing((tx ?? prisma).zone.update({ where: { id }, data: fields })),

    /** False when no zone has the id. */
    remove: async (id: string, tx?: Tx): Promise<boolean> =>
      (await (tx ?? prisma).zone.deleteMany({ where: { id } })).count > 0,
  };
}
export type ZonesRepository = ReturnType<typeof createZonesRepository>;
