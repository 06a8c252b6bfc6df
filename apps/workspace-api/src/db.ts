import { PrismaPg } from '@prisma/adapter-pg';
import { poolConfig, statementNames } from '@platform/db';
import type { Config } from './config';
import { Prisma, PrismaClient } from './generated/prisma/client';

export type Db = PrismaClient;

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

/** The one transaction type: what `db.$transaction(async (tx) => …)` hands its callback. */
export type Tx = Prisma.TransactionClient;
/** Repositories take either, so that a service decides whether a query joins a transaction. */
export type DbClient = Db | Tx;

/** `"<schema>"."<table>"` for raw statements; the schema is validated by config as a plain identifier. */
export function tableIn(schema: string, table: string): Prisma.Sql {
  return Prisma.raw(`"${schema}"."${table}"`);
}
