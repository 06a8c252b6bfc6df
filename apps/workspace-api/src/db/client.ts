import type { Pool } from 'pg';
import { openServicePool } from '@platform/db';
import type { Config } from '../config';
import { Prisma, PrismaClient } from '../generated/prisma/client';

/** The one transaction type: what `database.transaction(async (tx) => …)` hands its callback. */
export type Tx = Prisma.TransactionClient;
/** The Prisma client, for repositories that take it directly. */
export type Db = PrismaClient;
/** Repositories take either, so that a service decides whether a query joins a transaction. */
export type DbClient = Db | Tx;

type DatabaseConfig = Pick<
  Config,
  'DATABASE_URL' | 'DATABASE_POOL_MAX' | 'DATABASE_TIMEOUT_MS' | 'DATABASE_SCHEMA'
>;

/**
 * workspace-api's one way to Postgres: one `pg` pool with Prisma running on it. Repositories use
 * Prisma for ordinary work and the same pool for their hot statements (statements.ts); nothing
 * outside a repository sees either.
 */
export interface Database {
  prisma: PrismaClient;
  pool: Pool;
  /** DATABASE_SCHEMA: Prisma applies it to its own queries, our SQL names it (qualified()). */
  schema: string;
  transaction<T>(work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Answers when the database does (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
  isolationLevel?: Prisma.TransactionIsolationLevel;
}

export function openDatabase(config: DatabaseConfig): Database {
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
    ping: async () => {
      await pool.query('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}
