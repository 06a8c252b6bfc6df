import { toTimestamp, toWireId } from '@platform/schemas';
import type { AgentRow } from './agents.repository';
import type { AgentResponse } from './agents.schemas';
import { agentCapacity, agentFree, type AgentResources } from './capacity';

/** An agent with its zone's name and what its live sessions reserve. */
export type AgentWithZone = AgentRow & {
  zone: { name: string };
  reserved: { cores: number; memory: number };
};

/** The row with its bigint byte counts as numbers (any real memory size is far below 2^53). */
export function agentResources(agent: AgentRow): AgentResources {
  return {
    hostname: agent.hostname,
    cores: agent.cores,
    memory: Number(agent.memory),
    coresOverride: agent.coresOverride,
    memoryOverride: Number(agent.memoryOverride),
    allocatedCores: agent.allocatedCores,
    allocatedMemory: Number(agent.allocatedMemory),
  };
}

export function toAgentResponse(agent: AgentWithZone): AgentResponse {
  const own = agentResources(agent);
  const resources = {
    ...own,
    allocatedCores: own.allocatedCores + agent.reserved.cores,
    allocatedMemory: own.allocatedMemory + agent.reserved.memory,
  };
  return {
    agent_id: toWireId(agent.id),
    hostname: agent.hostname,
    zone_id: toWireId(agent.zoneId),
    zone_name: agent.zone.name,
    docker_url: agent.dockerUrl,
    status: agent.status,
    status_reason: agent.statusReason,
    last_heartbeat: toTimestamp(agent.heartbeatAt),
    cores: resources.cores,
    memory: resources.memory,
    cores_override: resources.coresOverride,
    memory_override: resources.memoryOverride,
    capacity: agentCapacity(resources),
    allocated: { cores: resources.allocatedCores, memory: resources.allocatedMemory },
    free: agentFree(resources),
    created: toTimestamp(agent.createdAt),
    updated: toTimestamp(agent.updatedAt),
  };
}
