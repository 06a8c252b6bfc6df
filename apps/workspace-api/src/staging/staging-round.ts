import type { FastifyBaseLogger } from 'fastify';
import type { StagedPools } from '../sessions';
import type { StagingRepository } from './staging.repository';

/**
 * One staging round, run by the session worker beside its other steps (safe on every replica:
 * each config is filled under its own lock): retire what deleted configs left, then bring each
 * config to its number. A config that cannot be filled is logged when its reason changes.
 */
export function createStagingRound({
  configs,
  pools,
  log,
}: {
  configs: Pick<StagingRepository, 'list'>;
  pools: Pick<StagedPools, 'fill' | 'retireOrphans'>;
  log: FastifyBaseLogger;
}) {
  const problems = new Map<string, string>();
  return async function stagingRound(): Promise<void> {
    const orphans = await pools.retireOrphans();
    if (orphans > 0)
      log.info({ retired: orphans }, 'staged sessions of deleted staging configs retired');
    const rows = await configs.list();
    for (const [id] of problems) if (!rows.some((row) => row.id === id)) problems.delete(id);
    for (const row of rows) {
      try {
        const { started, retired } = await pools.fill(row);
        problems.delete(row.id);
        if (started + retired > 0)
          log.info({ stagingConfigId: row.id, started, retired }, 'staging pool filled');
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (problems.get(row.id) !== reason) {
          log.warn({ stagingConfigId: row.id, reason }, 'staging pool not filled');
          problems.set(row.id, reason);
        }
      }
    }
  };
}
