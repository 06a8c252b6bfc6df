import {
  orNullWhenMissing,
  qualified,
  type AuditedTransaction,
  type Database,
  type Tx,
} from '../db';
import { Prisma, type Agent } from '../generated/prisma/client';

export type AgentRow = Agent;

/** An agent's name and engine address: what reaching its engine needs. */
export interface AgentEngine {
  id: string;
  hostname: string;
  dockerUrl: string;
  tlsCaPath: string;
  tlsCertPath: string;
  tlsKeyPath: string;
}
const AGENT_ENGINE_SELECT = {
  id: true,
  hostname: true,
  dockerUrl: true,
  tlsCaPath: true,
  tlsCertPath: true,
  tlsKeyPath: true,
} as const satisfies Record<keyof AgentEngine, true>;

/** The columns a create or an update sets; memory in bytes. Absent ones are left alone. */
export interface AgentFields {
  hostname?: string;
  zoneId?: string;
  dockerUrl?: string;
  tlsCaPath?: string;
  tlsCertPath?: string;
  tlsKeyPath?: string;
  status?: string;
  statusReason?: string;
  heartbeatAt?: Date;
  cores?: number;
  memory?: number;
  coresOverride?: number;
  memoryOverride?: number;
  allocatedCores?: number;
  allocatedMemory?: number;
}
export type NewAgent = AgentFields & {
  hostname: string;
  zoneId: string;
  cores: number;
  memory: number;
};

const BY_HOSTNAME = { hostname: 'asc' } as const;
const bytes = (value: number | undefined) => (value === undefined ? undefined : BigInt(value));
const columns = (fields: AgentFields) => ({
  ...fields,
  memory: bytes(fields.memory),
  memoryOverride: bytes(fields.memoryOverride),
  allocatedMemory: bytes(fields.allocatedMemory),
});

/**
 * Every query of agents (`agent`): the settings' and the API's reads and writes, sessions'
 * placement, heartbeats and the engines to reconcile; their zones' names are the zones
 * repository's to say. A taken hostname fails with a unique violation, a
 * zone that does not exist with a foreign-key violation (db/database-errors.ts).
 */
export function createAgentsRepository(database: Database) {
  const { prisma, schema } = database;
  const agent = Prisma.raw(qualified(schema, 'agent'));
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    /** Every agent by hostname (inside `tx` when given). */
    list: (tx?: Tx): Promise<AgentRow[]> => (tx ?? prisma).agent.findMany({ orderBy: BY_HOSTNAME }),

    /** Null when no agent has the id. */
    find: (id: string, tx?: Tx): Promise<AgentRow | null> =>
      (tx ?? prisma).agent.findUnique({ where: { id } }),

    create: (fields: NewAgent, tx?: Tx): Promise<AgentRow> =>
      (tx ?? prisma).agent.create({
        data: {
          ...columns(fields),
          hostname: fields.hostname,
          zoneId: fields.zoneId,
          cores: fields.cores,
          memory: BigInt(fields.memory),
        },
      }),

    /** Null when no agent has the id. */
    update: (id: string, fields: AgentFields, tx?: Tx): Promise<AgentRow | null> =>
      orNullWhenMissing((tx ?? prisma).agent.update({ where: { id }, data: columns(fields) })),

    /** These agents' engines and zones, by id. */
    async enginesOf(
      ids: readonly string[],
    ): Promise<Map<string, AgentEngine & { zoneId: string }>> {
      const rows = await prisma.agent.findMany({
        where: { id: { in: [...ids] } },
        select: { ...AGENT_ENGINE_SELECT, zoneId: true },
      });
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** How many agents each zone has, by zone id (zones without any are absent). */
    async countByZone(tx?: Tx): Promise<Map<string, number>> {
      const counts = await (tx ?? prisma).agent.groupBy({
        by: ['zoneId'],
        _count: { _all: true },
      });
      return new Map(counts.map((c) => [c.zoneId, c._count._all]));
    },

    /** False when no agent has the id. */
    remove: async (id: string, tx?: Tx): Promise<boolean> =>
      (await (tx ?? prisma).agent.deleteMany({ where: { id } })).count > 0,

    /**
     * Locks one agent's row for placing a session on it until `tx` ends (or its savepoint is
     * rolled back): launches on other agents go on meanwhile. With `skipLocked`, answers false at
     * once when another transaction holds it; otherwise waits. False when no agent has the id.
     */
    async lockOne(tx: Tx, id: string, { skipLocked }: { skipLocked: boolean }): Promise<boolean> {
      const rows = skipLocked
        ? await tx.$queryRaw<{ id: string }[]>`
            SELECT id FROM ${agent} WHERE id = ${id}::uuid FOR UPDATE SKIP LOCKED`
        : await tx.$queryRaw<{ id: string }[]>`
            SELECT id FROM ${agent} WHERE id = ${id}::uuid FOR UPDATE`;
      return rows.length > 0;
    },

    /**
     * Claims the engine agents whose last heartbeat is older than `intervalMs`, stamping them so
     * that another replica's round skips them: each agent is checked once per interval overall.
     */
    async claimHeartbeats(intervalMs: number) {
      const ids = await prisma.$queryRaw<{ id: string }[]>`
        UPDATE ${agent} SET heartbeat_at = now()
        WHERE id IN (
          SELECT id FROM ${agent}
          WHERE docker_url <> ''
            AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => ${intervalMs / 1000}))
          FOR UPDATE SKIP LOCKED)
        RETURNING id`;
      return prisma.agent.findMany({
        where: { id: { in: ids.map((r) => r.id) } },
        select: AGENT_ENGINE_SELECT,
      });
    },

    recordOnline: (id: string, detected: { cores: number; memory: number }) =>
      prisma.agent.updateMany({
        where: { id },
        data: {
          status: 'online',
          statusReason: '',
          cores: detected.cores,
          memory: BigInt(detected.memory),
        },
      }),

    recordOffline: (id: string, reason: string) =>
      prisma.agent.updateMany({
        where: { id },
        data: { status: 'offline', statusReason: reason.slice(0, 2000) },
      }),

    onlineEngines: () =>
      prisma.agent.findMany({
        where: { status: 'online', dockerUrl: { not: '' } },
        select: AGENT_ENGINE_SELECT,
      }),
  };
}
export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
