import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { poolConfig, type PoolSettings } from './pool-config';
import { statementNames } from './statement-names';

export interface ServicePoolSettings extends PoolSettings {
  /** The Postgres schema the service owns; Prisma applies it to its own queries. */
  schema: string;
}

/**
 * A service's one connection pool, and the Prisma driver adapter that runs Prisma on it: each
 * service's data layer builds its Prisma client on `adapter` and sends its hot statements,
 * prepared by name, on `pool`.
 */
export function openServicePool(settings: ServicePoolSettings): { pool: Pool; adapter: PrismaPg } {
  const pool = new Pool(poolConfig(settings));
  // An idle connection that dies (the server restarted) must not crash the process: the pool
  // replaces it, and the next query reports the outage if there is one.
  pool.on('error', () => undefined);
  const adapter = new PrismaPg(pool, {
    schema: settings.schema,
    statementNameGenerator: statementNames(),
  });
  return { pool, adapter };
}
