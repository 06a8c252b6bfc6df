import type { Pool } from 'pg';
import { openServicePool } from '@platform/db';
import type { Config } from '../config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The client inside `prisma.$transaction(async (tx) => …)`, handed to repositories. */
export type Tx = Prisma.TransactionClient;

/**
 * The service's one way to Postgres: one `pg` pool, with Prisma running on it. Repositories use
 * Prisma for ordinary work and the same pool for their hot statements, prepared by name.
 */
export interface Database {
  prisma: PrismaClient;
  pool: Pool;
  /** DATABASE_SCHEMA, which Prisma applies to its own queries but not to SQL of ours. */
  schema: string;
  /** One transaction: every statement of `work` through its `tx`, committed together or not at all. */
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /** Longest wait for a connection to start the transaction on. */
  maxWait?: number;
  /** Longest the transaction may run. */
  timeout?: number;
}

export function openDatabase(config: Config): Database {
  const { pool, adapter } = openServicePool({
    connectionString: config.DATABASE_URL,
    maxConnections: config.DATABASE_POOL_MAX,
    timeoutMs: config.DATABASE_TIMEOUT_MS,
    schema: config.DATABASE_SCHEMA,
  });
  // 'minimal': no stack trace captured on every query to point error messages at the caller.
  const prisma = new PrismaClient({ adapter, errorFormat: 'minimal' });
  return {
    prisma,
    pool,
    schema: config.DATABASE_SCHEMA,
    transaction: (work, options) => prisma.$transaction(work, options),
    async close() {
      await prisma.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}
