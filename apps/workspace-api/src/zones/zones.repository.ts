import { orNullWhenMissing, type Database, type Tx } from '../db';
import type { Zone } from '../generated/prisma/client';

/** A zone with how many agents it has: the one shape every zone query returns. */
export type ZoneRow = Zone & { _count: { agents: number } };

export interface ZoneFields {
  name: string;
  proxyHostname: string;
  proxyPath?: string;
  proxyPort?: number;
}

const WITH_COUNT = { _count: { select: { agents: true } } } as const;

/**
 * Every query of zones. A taken name fails with a unique violation (isUniqueViolation); deleting
 * a zone that still has agents, with a foreign-key violation (isForeignKeyViolation). Writes
 * given a `tx` join that transaction (the settings apply).
 */
export function createZonesRepository({ prisma }: Database) {
  return {
    list: (tx?: Tx): Promise<ZoneRow[]> =>
      (tx ?? prisma).zone.findMany({ include: WITH_COUNT, orderBy: { name: 'asc' } }),

    create: (fields: ZoneFields, tx?: Tx): Promise<ZoneRow> =>
      (tx ?? prisma).zone.create({ data: fields, include: WITH_COUNT }),

    /** Null when no zone has the id. */
    update: (id: string, fields: Partial<ZoneFields>, tx?: Tx): Promise<ZoneRow | null> =>
      orNullWhenMissing(
        (tx ?? prisma).zone.update({ where: { id }, data: fields, include: WITH_COUNT }),
      ),

    /** False when no zone has the id. */
    remove: async (id: string, tx?: Tx): Promise<boolean> =>
      (await (tx ?? prisma).zone.deleteMany({ where: { id } })).count > 0,
  };
}
export type ZonesRepository = ReturnType<typeof createZonesRepository>;
