import { PrismaPg } from '@prisma/adapter-pg';
import { poolConfig, statementNames } from '@platform/db';
import type { Config } from './config';
import { Prisma, PrismaClient } from './generated/prisma/client';

export type Db = PrismaClient;
/** The client inside `db.$transaction(async (tx) => …)`. */
export type Tx = Prisma.TransactionClient;

export function createDb(config: Config): Db {
  const adapter = new PrismaPg(
    poolConfig({
      connectionString: config.DATABASE_URL,
      maxConnections: config.DATABASE_POOL_MAX,
      timeoutMs: config.DATABASE_TIMEOUT_MS,
    }),
    { schema: config.DATABASE_SCHEMA, statementNameGenerator: statementNames() },
  );
  // 'minimal': no stack trace captured on every query to point error messages at the caller.
  return new PrismaClient({ adapter, errorFormat: 'minimal' });
}

/**
 * A table of the service's schema for raw SQL: the adapter qualifies the queries Prisma builds,
 * not raw ones. Safe to splice: DATABASE_SCHEMA is validated as a plain identifier.
 */
export function tableOf(config: Pick<Config, 'DATABASE_SCHEMA'>, table: string): Prisma.Sql {
  return Prisma.raw(`"${config.DATABASE_SCHEMA}"."${table}"`);
}
