import { qualified, type Db, type Tx } from '../db';
import { Prisma } from '../generated/prisma/client';

/** An agent's name and engine address: what reaching its engine needs. */
export const AGENT_ENGINE_SELECT = {
  id: true,
  hostname: true,
  dockerUrl: true,
  tlsCaPath: true,
  tlsCertPath: true,
  tlsKeyPath: true,
} as const;

/** The agent queries of sessions: placement, heartbeats and the engines to reconcile. */
export function createAgentsRepository(db: Db, schema: string) {
  const table = (name: string) => Prisma.raw(qualified(schema, name));
  return {
    /** Every agent with its zone id and status, inside the placing transaction. */
    forPlacement: (tx: Tx) => tx.agent.findMany({ orderBy: { hostname: 'asc' } }),

    /**
     * Claims the engine agents whose last heartbeat is older than `intervalMs`, stamping them so
     * that another replica's round skips them: each agent is checked once per interval overall.
     */
    async claimHeartbeats(intervalMs: number) {
      const agent = table('agent');
      const ids = await db.$queryRaw<{ id: string }[]>`
        UPDATE ${agent} SET heartbeat_at = now()
        WHERE id IN (
          SELECT id FROM ${agent}
          WHERE docker_url <> ''
            AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => ${intervalMs / 1000}))
          FOR UPDATE SKIP LOCKED)
        RETURNING id`;
      return db.agent.findMany({
        where: { id: { in: ids.map((r) => r.id) } },
        select: AGENT_ENGINE_SELECT,
      });
    },

    recordOnline: (id: string, detected: { cores: number; memory: number }) =>
      db.agent.updateMany({
        where: { id },
        data: {
          status: 'online',
          statusReason: '',
          cores: detected.cores,
          memory: BigInt(detected.memory),
        },
      }),

    recordOffline: (id: string, reason: string) =>
      db.agent.updateMany({
        where: { id },
        data: { status: 'offline', statusReason: reason.slice(0, 2000) },
      }),

    onlineEngines: () =>
      db.agent.findMany({
        where: { status: 'online', dockerUrl: { not: '' } },
        select: AGENT_ENGINE_SELECT,
      }),
  };
}
export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
