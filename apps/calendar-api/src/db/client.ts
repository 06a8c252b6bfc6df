import { openServiceDatabase, type DatabaseEnv, type ServiceDatabase } from '@platform/db';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The client inside `prisma.$transaction(async (tx) => …)`, handed to repositories. */
export type Tx = Prisma.TransactionClient;

/**
 * The service's one way to Postgres: one `pg` pool, with Prisma running on it. Repositories use
 * Prisma for ordinary work and the same pool for their hot statements, prepared by name.
 */
export interface Database extends ServiceDatabase<PrismaClient> {
  /** One transaction: every statement of `work` through its `tx`, committed together or not at all. */
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

export interface TransactionOptions {
  /** Longest wait for a connection to start the transaction on. */
  maxWait?: number;
  /** Longest the transaction may run. */
  timeout?: number;
}

export function openDatabase(config: DatabaseEnv): Database {
  return openServiceDatabase(config, (options) => new PrismaClient(options));
}
