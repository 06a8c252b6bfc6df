import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import { isForeignKeyViolation, isUniqueViolation } from '../db';
import type { Engines } from '../engines/engines';
import {
  AgentHasSessionsError,
  AgentHostnameTakenError,
  AgentNotFoundError,
  ZoneNotFoundError,
} from '../errors';
import { normalizeHostname } from '../domain/names';
import type { CreateAgentInput, UpdateAgentInput } from './agents.schemas';
import type { AgentFields, AgentRow, AgentsRepository } from './agents.repository';

/** An agent with what its live sessions reserve. */
export type AgentWithZone = AgentRow & { reserved: { cores: number; memory: number } };

export interface AgentsDeps {
  agents: AgentsRepository;
  engines: Engines;
  /** What live sessions reserve, by agent id (the sessions feature's public face). */
  reservations: () => Promise<Map<string, { cores: number; memory: number }>>;
}

export function createAgentsService({ agents, engines, reservations }: AgentsDeps) {
  /** Uniqueness and the zone's existence are the database's to decide (a unique index, a foreign key). */
  const rethrow = (input: { hostname?: string; zone_id?: string }) => (error: unknown) => {
    if (isUniqueViolation(error)) throw new AgentHostnameTakenError(input.hostname ?? '');
    if (isForeignKeyViolation(error)) throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
    throw error;
  };

  async function withReservations(rows: AgentRow[]): Promise<AgentWithZone[]> {
    const reserved = await reservations();
    return rows.map((row) => ({
      ...row,
      reserved: reserved.get(row.id) ?? { cores: 0, memory: 0 },
    }));
  }
  const one = async (row: AgentRow) => (await withReservations([row]))[0];

  /** Asks a new engine address what it offers, so that the agent is usable at once. */
  async function probe(input: {
    docker_url?: string;
    tls_ca_path?: string;
    tls_cert_path?: string;
    tls_key_path?: string;
  }): Promise<AgentFields> {
    if (!input.docker_url) return {};
    const address = {
      dockerUrl: input.docker_url,
      tlsCaPath: input.tls_ca_path ?? '',
      tlsCertPath: input.tls_cert_path ?? '',
      tlsKeyPath: input.tls_key_path ?? '',
    };
    try {
      const info = await engines.forAgent(address).info();
      return {
        status: 'online',
        statusReason: '',
        cores: info.cores,
        memory: info.memory,
        heartbeatAt: new Date(),
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { status: 'offline', statusReason: reason.slice(0, 2000), heartbeatAt: new Date() };
    }
  }

  const engineFields = (input: CreateAgentInput | UpdateAgentInput) => ({
    dockerUrl: input.docker_url,
    tlsCaPath: input.tls_ca_path,
    tlsCertPath: input.tls_cert_path,
    tlsKeyPath: input.tls_key_path,
  });

  return {
    list: async (): Promise<AgentWithZone[]> => withReservations(await agents.list()),

    async create(input: CreateAgentInput): Promise<AgentWithZone> {
      if (!input.docker_url && (input.cores === undefined || input.memory === undefined)) {
        throw withFieldErrors(new ValidationFailedError('The request is invalid'), [
          {
            field: 'target_agent',
            message: 'needs cores and memory, or a docker_url to detect them from',
          },
        ]);
      }
      const detected = await probe(input);
      const fields = {
        hostname: normalizeHostname(input.hostname),
        zoneId: toUuid(input.zone_id),
        ...engineFields(input),
        cores: input.cores ?? 0,
        memory: input.memory ?? 0,
        ...detected,
        coresOverride: input.cores_override,
        memoryOverride: input.memory_override,
      };
      return one(await agents.create(fields).catch(rethrow(input)));
    },

    /** Only the fields present change; a new engine address is checked at once. */
    async update(input: UpdateAgentInput): Promise<AgentWithZone> {
      const fields: AgentFields = {
        hostname: input.hostname && normalizeHostname(input.hostname),
        zoneId: input.zone_id && toUuid(input.zone_id),
        ...engineFields(input),
        cores: input.cores,
        memory: input.memory,
        ...(input.docker_url !== undefined ? await probe(input) : {}),
        coresOverride: input.cores_override,
        memoryOverride: input.memory_override,
        allocatedCores: input.allocated_cores,
        allocatedMemory: input.allocated_memory,
      };
      if (input.docker_url === '') Object.assign(fields, { status: 'unknown', statusReason: '' });
      const row = await agents.update(toUuid(input.agent_id), fields).catch(rethrow(input));
      if (!row) throw new AgentNotFoundError(`agent_id ${input.agent_id}`);
      return one(row);
    },

    /** Refused while sessions run on it: their containers would be lost track of. */
    async remove(agentId: string): Promise<void> {
      const id = toUuid(agentId);
      if ((await reservations()).has(id)) throw new AgentHasSessionsError();
      if (!(await agents.remove(id))) throw new AgentNotFoundError(`agent_id ${agentId}`);
    },
  };
}
export type AgentsService = ReturnType<typeof createAgentsService>;
