import { openServiceDatabase, type DatabaseEnv, type ServiceDatabase } from '@platform/db';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The one transaction type: what `database.transaction(async (tx) => …)` hands its callback. */
export type Tx = Prisma.TransactionClient;
/** The Prisma client (tests seed through it). */
export type Db = PrismaClient;

/**
 * workspace-api's one way to Postgres: one `pg` pool with Prisma running on it. Repositories use
 * Prisma for ordinary work and the same pool for their hot statements (statements.ts); nothing
 * outside a repository sees either.
 */
export interface Database extends ServiceDatabase<PrismaClient> {
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
  isolationLevel?: Prisma.TransactionIsolationLevel;
  /** The API write's audit event (an AuditRecorder), told whether it committed with the work. */
  audit?: { settle(written: boolean): void } | null;
}

export function openDatabase(config: DatabaseEnv): Database {
  const database = openServiceDatabase(config, (options) => new PrismaClient(options));
  const transaction = database.transaction;
  return {
    ...database,
    async transaction<T>(work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}) {
      // A transaction waits for a connection as long as a single statement does (Prisma's own
      // default is 2 s), so a write in a transaction is no quicker to give up under load.
      const { audit, ...rest } = options;
      const prismaOptions = { maxWait: config.DATABASE_TIMEOUT_MS, ...rest };
      if (!audit) return transaction(work, prismaOptions);
      try {
        const result = await transaction(work, prismaOptions);
        audit.settle(true);
        return result;
      } catch (error) {
        audit.settle(false);
        throw error;
      }
    },
  };
}
