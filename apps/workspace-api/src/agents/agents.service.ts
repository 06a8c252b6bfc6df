import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  recordedChange,
  recordedRemoval,
  type AuditRecorder,
  type Tx,
} from '../db';
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
import { toAgentResponse, type AgentWithZone } from './agent-response';

export type { AgentWithZone } from './agent-response';

export interface AgentsDeps {
  agents: AgentsRepository;
  engines: Engines;
  /** Which engine addresses the operator allows (config). */
  policy: EnginePolicy;
  /** What live sessions reserve, by agent id (the sessions feature's public face), in `tx` when given. */
  reservations: (tx?: Tx) => Promise<Map<string, { cores: number; memory: number }>>;
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

  async function withReservations(rows: AgentRow[], tx?: Tx): Promise<AgentWithZone[]> {
    const [reserved, zoneNames] = await Promise.all([
      reservations(tx),
      zones.namesOf([...new Set(rows.map((row) => row.zoneId))], tx),
    ]);
    return rows.map((row) => ({
      ...row,
      zone: { name: zoneNames.get(row.zoneId) ?? '' },
      reserved: reserved.get(row.id) ?? { cores: 0, memory: 0 },
    }));
  }
  const one = async (row: AgentRow, tx: Tx) => (await withReservations([row], tx))[0];
  /** The agent as get_agents answers it, read in `tx`: its audit snapshot. */
  const snapshot = (id: string) => async (tx: Tx) => {
    const agent = await agents.find(id, tx);
    return agent && toAgentResponse(await one(agent, tx));
  };
  const answered = (_tx: Tx, agent: AgentWithZone) => toAgentResponse(agent);
  const notFound = (agentId: string) => new AgentNotFoundError(`agent_id ${agentId}`);

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

    /**
     * With `audit` (here and below), the API's event is written in the change's transaction;
     * asking the engine what it offers comes before it.
     */
    async create(input: CreateAgentInput, audit?: AuditRecorder | null): Promise<AgentWithZone> {
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
      return recordedChange(agents.transaction, audit, {
        change: async (tx) => one(await agents.create(fields, tx), tx),
        after: answered,
      }).catch(rethrow(input));
    },

    /** Only the fields present change; a new engine address is checked at once. */
    async update(input: UpdateAgentInput, audit?: AuditRecorder | null): Promise<AgentWithZone> {
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
        if (!stored) throw notFound(input.agent_id);
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
      return recordedChange(agents.transaction, audit, {
        before: snapshot(id),
        change: async (tx) => {
          const row = await agents.update(id, fields, tx);
          if (!row) throw notFound(input.agent_id);
          return one(row, tx);
        },
        after: answered,
      }).catch(rethrow(input));
    },

    /** Refused while sessions run on it: their containers would be lost track of. */
    async remove(agentId: string, audit?: AuditRecorder | null): Promise<void> {
      const id = toUuid(agentId);
      if (await hasSessions(id)) throw new AgentHasSessionsError();
      await recordedRemoval(
        agents.transaction,
        audit,
        snapshot(id),
        (tx) => agents.remove(id, tx),
        () => notFound(agentId),
      );
    },
  };
}
export type AgentsService = ReturnType<typeof createAgentsService>;
