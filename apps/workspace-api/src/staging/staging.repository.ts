import { orNullWhenMissing, type AuditedTransaction, type Database, type Tx } from '../db';
import type { StagingConfig } from '../generated/prisma/client';

export type StagingConfigRow = StagingConfig;

export interface StagingConfigFields {
  zoneId: string;
  imageId: string;
  numSessions: number;
  expirationHours: number;
}

/**
 * Every query of staging configs (`staging_config`). A second config for the same zone and
 * workspace fails with a unique violation, an unknown zone or workspace with a foreign-key
 * violation (db/database-errors.ts). Writes given a `tx` join it (the settings apply).
 */
export function createStagingRepository(database: Database) {
  const { prisma } = database;
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    find: (id: string, tx?: Tx): Promise<StagingConfigRow | null> =>
      (tx ?? prisma).stagingConfig.findUnique({ where: { id } }),

    list: (tx?: Tx): Promise<StagingConfigRow[]> =>
      (tx ?? prisma).stagingConfig.findMany({ orderBy: { createdAt: 'asc' } }),

    create: (fields: StagingConfigFields, tx?: Tx): Promise<StagingConfigRow> =>
      (tx ?? prisma).stagingConfig.create({ data: fields }),

    /** Null when no config has the id. */
    update: (
      id: string,
      fields: Partial<Pick<StagingConfigFields, 'numSessions' | 'expirationHours'>>,
      tx?: Tx,
    ): Promise<StagingConfigRow | null> =>
      orNullWhenMissing((tx ?? prisma).stagingConfig.update({ where: { id }, data: fields })),

    /** False when no config has the id. */
    remove: async (id: string, tx?: Tx): Promise<boolean> =>
      (await (tx ?? prisma).stagingConfig.deleteMany({ where: { id } })).count > 0,
  };
}
export type StagingRepository = ReturnType<typeof createStagingRepository>;
