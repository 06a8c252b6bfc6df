import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import { isForeignKeyViolation, isUniqueViolation } from '../db';
import {
  checkEngineAddress,
  type EngineAddress,
  type EnginePolicy,
  engineReason,
  type Engines,
  tlsFileProblems,
} from '../engines';
import {
  AgentHasSessionsError,
  AgentHostnameTakenError,
  AgentNotFoundError,
  ZoneNotFoundError,
} from '../errors';
import { normalizeHostname } from '../domain';
import type { CreateAgentInput, UpdateAgentInput } from './agents.schemas';
import type { ZonesRepository } from '../zones';
import type { AgentFields, AgentRow, AgentsRepository } from './agents.repository';

/** An agent with its zone's name and what its live sessions reserve. */
export type AgentWithZone = AgentRow & {
  zone: { name: string };
  reserved: { cores: number; memory: number };
};

export interface AgentsDeps {
  agents: AgentsRepository;
  engines: Engines;
  /** Which engine addresses the operator allows (config). */
  policy: EnginePolicy;
  /** What live sessions reserve, by agent id (the sessions feature's public face). */
  reservations: () => Promise<Map<string, { cores: number; memory: number }>>;
  /** Whether sessions live on the agent, stopped ones (which reserve nothing) included. */
  hasSessions: (agentId: string) => Promise<boolean>;
  /** The agents' zones' names. */
  zones: Pick<ZonesRepository, 'namesOf'>;
}

const invalid = (problems: FieldProblem[]) =>
  withFieldErrors(
    new ValidationFailedError('The request is invalid'),
    problems.map((p) => ({ field: `target_agent.${p.field}`, message: p.message })),
  );

/** The address an update leaves: fields sent replace stored ones; TLS paths go when the engine is no longer tcp://. */
function addressAfter(stored: EngineAddress, input: UpdateAgentInput): EngineAddress {
  const dockerUrl = input.docker_url ?? stored.dockerUrl;
  const keep = (given: string | undefined, old: string) =>
    given ?? (dockerUrl.startsWith('tcp://') ? old : '');
  return {
    dockerUrl,
    tlsCaPath: keep(input.tls_ca_path, stored.tlsCaPath),
    tlsCertPath: keep(input.tls_cert_path, stored.tlsCertPath),
    tlsKeyPath: keep(input.tls_key_path, stored.tlsKeyPath),
  };
}

export function createAgentsService({
  agents,
  engines,
  policy,
  reservations,
  hasSessions,
  zones,
}: AgentsDeps) {
  /** Uniqueness and the zone's existence are the database's to decide (a unique index, a foreign key). */
  const rethrow = (input: { hostname?: string; zone_id?: string }) => (error: unknown) => {
    if (isUniqueViolation(error)) throw new AgentHostnameTakenError(input.hostname ?? '');
    if (isForeignKeyViolation(error)) throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
    throw error;
  };

  async function withReservations(rows: AgentRow[]): Promise<AgentWithZone[]> {
    const [reserved, zoneNames] = await Promise.all([
      reservations(),
      zones.namesOf([...new Set(rows.map((row) => row.zoneId))]),
    ]);
    return rows.map((row) => ({
      ...row,
      zone: { name: zoneNames.get(row.zoneId) ?? '' },
      reserved: reserved.get(row.id) ?? { cores: 0, memory: 0 },
    }));
  }
  const one = async (row: AgentRow) => (await withReservations([row]))[0];

  /** Refuses, as a 400 naming each field, an address the policy or its TLS files do not allow. */
  async function check(address: EngineAddress): Promise<void> {
    const checked = checkEngineAddress(address, policy);
    const problems = checked.ok ? await tlsFileProblems(address, policy.tlsDir) : checked.problems;
    if (problems.length > 0) throw invalid(problems);
  }

  /** Asks a new engine address what it offers, so that the agent is usable at once. */
  async function probe(address: EngineAddress, hostname: string): Promise<AgentFields> {
    if (!address.dockerUrl) return { status: 'unknown', statusReason: '' };
    try {
      const info = await engines.forAgent({ ...address, hostname }).info();
      return {
        status: 'online',
        statusReason: '',
        cores: info.cores,
        memory: info.memory,
        heartbeatAt: new Date(),
      };
    } catch (error) {
      return { status: 'offline', statusReason: engineReason(error), heartbeatAt: new Date() };
    }
  }

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
      const address = {
        dockerUrl: input.docker_url ?? '',
        tlsCaPath: input.tls_ca_path ?? '',
        tlsCertPath: input.tls_cert_path ?? '',
        tlsKeyPath: input.tls_key_path ?? '',
      };
      await check(address);
      const hostname = normalizeHostname(input.hostname);
      const detected = await probe(address, hostname);
      const fields = {
        hostname,
        zoneId: toUuid(input.zone_id),
        ...address,
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
      const id = toUuid(input.agent_id);
      const engineChange = [
        input.docker_url,
        input.tls_ca_path,
        input.tls_cert_path,
        input.tls_key_path,
      ].some((v) => v !== undefined);
      let engine: AgentFields = {};
      if (engineChange) {
        const stored = await agents.find(id);
        if (!stored) throw new AgentNotFoundError(`agent_id ${input.agent_id}`);
        const address = addressAfter(stored, input);
        await check(address);
        engine = { ...address, ...(await probe(address, stored.hostname)) };
      }
      const fields: AgentFields = {
        hostname: input.hostname && normalizeHostname(input.hostname),
        zoneId: input.zone_id && toUuid(input.zone_id),
        cores: input.cores,
        memory: input.memory,
        ...engine,
        coresOverride: input.cores_override,
        memoryOverride: input.memory_override,
        allocatedCores: input.allocated_cores,
        allocatedMemory: input.allocated_memory,
      };
      const row = await agents.update(id, fields).catch(rethrow(input));
      if (!row) throw new AgentNotFoundError(`agent_id ${input.agent_id}`);
      return one(row);
    },

    /** Refused while sessions run on it: their containers would be lost track of. */
    async remove(agentId: string): Promise<void> {
      const id = toUuid(agentId);
      if (await hasSessions(id)) throw new AgentHasSessionsError();
      if (!(await agents.remove(id))) throw new AgentNotFoundError(`agent_id ${agentId}`);
    },
  };
}
export type AgentsService = ReturnType<typeof createAgentsService>;
