import { isUniqueViolation } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { Db } from '../db';
import { AgentHostnameTakenError, AgentNotFoundError, ZoneNotFoundError } from '../errors';
import type { Prisma } from '../generated/prisma/client';
import { normalizeHostname } from '../zones/zones.schemas';
import type { CreateAgentInput, UpdateAgentInput } from './agents.schemas';

const WITH_ZONE = { zone: { select: { name: true } } } satisfies Prisma.AgentInclude;
export type AgentWithZone = Prisma.AgentGetPayload<{ include: typeof WITH_ZONE }>;

const prismaCode = (error: unknown) => (error as { code?: string } | null)?.code;
const bytes = (value: number | undefined) => (value === undefined ? undefined : BigInt(value));

export function createAgentsService({ db }: { db: Db }) {
  /** Uniqueness and the zone's existence are the database's to decide (a unique index, a foreign key). */
  const rethrow =
    (input: { agent_id?: string; hostname?: string; zone_id?: string }) => (error: unknown) => {
      if (isUniqueViolation(error)) throw new AgentHostnameTakenError(input.hostname ?? '');
      if (prismaCode(error) === 'P2003') throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
      if (prismaCode(error) === 'P2025') throw new AgentNotFoundError(`agent_id ${input.agent_id}`);
      throw error;
    };

  return {
    list: (): Promise<AgentWithZone[]> =>
      db.agent.findMany({ include: WITH_ZONE, orderBy: { hostname: 'asc' } }),

    create(input: CreateAgentInput): Promise<AgentWithZone> {
      const data: Prisma.AgentUncheckedCreateInput = {
        hostname: normalizeHostname(input.hostname),
        zoneId: toUuid(input.zone_id),
        cores: input.cores,
        memory: BigInt(input.memory),
        coresOverride: input.cores_override,
        memoryOverride: bytes(input.memory_override),
      };
      return db.agent.create({ data, include: WITH_ZONE }).catch(rethrow(input));
    },

    /** Only the fields present change. */
    update(input: UpdateAgentInput): Promise<AgentWithZone> {
      const data: Prisma.AgentUncheckedUpdateInput = {
        hostname: input.hostname && normalizeHostname(input.hostname),
        zoneId: input.zone_id && toUuid(input.zone_id),
        cores: input.cores,
        memory: bytes(input.memory),
        coresOverride: input.cores_override,
        memoryOverride: bytes(input.memory_override),
        allocatedCores: input.allocated_cores,
        allocatedMemory: bytes(input.allocated_memory),
      };
      return db.agent
        .update({ where: { id: toUuid(input.agent_id) }, data, include: WITH_ZONE })
        .catch(rethrow(input));
    },

    async remove(agentId: string): Promise<void> {
      const { count } = await db.agent.deleteMany({ where: { id: toUuid(agentId) } });
      if (count === 0) throw new AgentNotFoundError(`agent_id ${agentId}`);
    },
  };
}
export type AgentsService = ReturnType<typeof createAgentsService>;
