import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { poolConfig } from './pool-config';
import { statementNames } from './statement-names';

/** The settings every service reads from its DATABASE_* variables. */
export interface DatabaseEnv {
  DATABASE_URL: string;
  DATABASE_POOL_MAX: number;
  DATABASE_TIMEOUT_MS: number;
  DATABASE_SCHEMA: string;
}

/** A service's one way to Postgres: one `pg` pool, with the service's Prisma client running on it. */
export interface ServiceDatabase<Client> {
  prisma: Client;
  /** For the hot statements repositories prepare by name. */
  pool: Pool;
  /** DATABASE_SCHEMA: Prisma applies it to its own queries, our SQL names it. */
  schema: string;
  /** Answers when the database does (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a service's pool and builds its Prisma client (`createClient`, since each service has its
 * own generated client) on the driver adapter that shares the pool.
 */
export function openServiceDatabase<Client extends { $disconnect(): Promise<void> }>(
  env: DatabaseEnv,
  createClient: (adapter: PrismaPg) => Client,
): ServiceDatabase<Client> {
  const pool = new Pool(
    poolConfig({
      connectionString: env.DATABASE_URL,
      maxConnections: env.DATABASE_POOL_MAX,
      timeoutMs: env.DATABASE_TIMEOUT_MS,
    }),
  );
  // An idle connection that dies (the server restarted) must not crash the process: the pool
  // replaces it, and the next query reports the outage if there is one.
  pool.on('error', () => undefined);
  const adapter = new PrismaPg(pool, {
    schema: env.DATABASE_SCHEMA,
    statementNameGenerator: statementNames(),
  });
  const prisma = createClient(adapter);
  return {
    prisma,
    pool,
    schema: env.DATABASE_SCHEMA,
    ping: async () => {
      await pool.query('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}
