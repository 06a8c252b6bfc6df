import { agentResources, type AgentRow } from '../agents';

export type Reservations = Map<string, { cores: number; memory: number }>;

/** An agent as a plan sees it: its own allocations plus what live sessions reserve on it. */
export function agentOffer(agent: AgentRow, reserved: Reservations) {
  const resources = agentResources(agent);
  const taken = reserved.get(agent.id) ?? { cores: 0, memory: 0 };
  return {
    ...resources,
    allocatedCores: resources.allocatedCores + taken.cores,
    allocatedMemory: resources.allocatedMemory + taken.memory,
    id: agent.id,
    zoneId: agent.zoneId,
  };
}

/** The agents a session may go to (online, with an engine, in the zone if one is named), and why the others may not. */
export function usableAgents(rows: readonly AgentRow[], zoneId: string | null | undefined) {
  const refusals: { hostname: string; reason: string }[] = [];
  const usable = rows.filter((agent) => {
    const reason = !agent.dockerUrl
      ? 'has no engine address (docker_url)'
      : agent.status !== 'online'
        ? `is ${agent.status}${agent.statusReason ? `: ${agent.statusReason}` : ''}`
        : zoneId && agent.zoneId !== zoneId
          ? 'is in another zone'
          : null;
    if (reason) refusals.push({ hostname: agent.hostname, reason: `The agent ${reason}` });
    return reason === null;
  });
  return { usable, refusals };
}
