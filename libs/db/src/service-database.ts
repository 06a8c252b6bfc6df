import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import {
  openListenConnection,
  type ListenConnection,
  type ListenConnectionOptions,
} from './listen-connection';
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
  /** A connection of its own, on the same database, for LISTEN and NOTIFY. */
  listenConnection(options: ListenConnectionOptions): ListenConnection;
  /** Answers when the database does (readiness), on a connection of its own, not the pool's. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What a service's generated Prisma client is built from. */
export interface ClientOptions {
  adapter: PrismaPg;
  errorFormat: 'minimal';
}

interface PrismaLike {
  $disconnect(): Promise<void>;
  $transaction: (...args: never[]) => Promise<unknown>;
}

/**
 * Opens a service's pool and builds its Prisma client (`createClient`, since each service has its
 * own generated client) on the driver adapter that shares the pool. `transaction` is the client's
 * `$transaction`: every statement of the work through its `tx`, committed together or not at all.
 */
export function openServiceDatabase<Client extends PrismaLike>(
  env: DatabaseEnv,
  createClient: (options: ClientOptions) => Client,
): ServiceDatabase<Client> & { transaction: Client['$transaction'] } {
  const pool = new Pool(
    poolConfig({
      connectionString: env.DATABASE_URL,
      maxConnections: env.DATABASE_POOL_MAX,
      timeoutMs: env.DATABASE_TIMEOUT_MS,
    }),
  );
  // Readiness asks on a connection of its own: a pool busy with requests is no reason to be taken
  // out of service (a probe queued behind them would time out and say "not ready" under load).
  const readiness = new Pool(
    poolConfig({
      connectionString: env.DATABASE_URL,
      maxConnections: 1,
      timeoutMs: env.DATABASE_TIMEOUT_MS,
    }),
  );
  // An idle connection that dies (the server restarted) must not crash the process: the pool
  // replaces it, and the next query reports the outage if there is one.
  pool.on('error', () => undefined);
  readiness.on('error', () => undefined);
  const adapter = new PrismaPg(pool, {
    schema: env.DATABASE_SCHEMA,
    statementNameGenerator: statementNames(),
  });
  // 'minimal': no stack trace captured on every query to point error messages at the caller.
  const prisma = createClient({ adapter, errorFormat: 'minimal' });
  return {
    prisma,
    transaction: prisma.$transaction.bind(prisma) as Client['$transaction'],
    pool,
    schema: env.DATABASE_SCHEMA,
    listenConnection: (options) => openListenConnection(env.DATABASE_URL, options),
    ping: async () => {
      await readiness.query('SELECT 1');
    },
    async close() {
      await prisma.$disconnect();
      if (!pool.ended) await pool.end();
      if (!readiness.ended) await readiness.end();
    },
  };
}
