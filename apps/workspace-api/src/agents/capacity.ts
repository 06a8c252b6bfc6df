/** An agent's resources as the launch plan sees them: numbers, memory in bytes. */
export interface AgentResources {
  hostname: string;
  cores: number;
  memory: number;
  coresOverride: number;
  memoryOverride: number;
  allocatedCores: number;
  allocatedMemory: number;
}

export interface Resources {
  cores: number;
  memory: number;
}

/** An override of 0 means "use what the agent detected". */
export function agentCapacity(agent: AgentResources): Resources {
  return {
    cores: agent.coresOverride > 0 ? agent.coresOverride : agent.cores,
    memory: agent.memoryOverride > 0 ? agent.memoryOverride : agent.memory,
  };
}

/** Capacity minus what is allocated; never below zero (allocation may exceed a lowered override). */
export function agentFree(agent: AgentResources): Resources {
  const capacity = agentCapacity(agent);
  return {
    cores: Math.max(0, capacity.cores - agent.allocatedCores),
    memory: Math.max(0, capacity.memory - agent.allocatedMemory),
  };
}

// Cores are fractional (1.5); keep 4 - 2.5 - 1.5 from failing a >= 0 comparison by a rounding error.
const EPSILON = 1e-9;

export type AgentChoice<A extends AgentResources> =
  { agent: A; free: Resources } | { agent: null; refusals: { hostname: string; reason: string }[] };

/**
 * The agents with room for a session needing `need`, best first: the most free memory, then the
 * most free cores, then the first hostname.
 */
export function rankAgents<A extends AgentResources>(
  agents: readonly A[],
  need: Resources,
): { agent: A; free: Resources }[] {
  return agents
    .map((agent) => ({ agent, free: agentFree(agent) }))
    .filter(({ free }) => free.cores + EPSILON >= need.cores && free.memory >= need.memory)
    .sort(
      (a, b) =>
        b.free.memory - a.free.memory ||
        b.free.cores - a.free.cores ||
        (a.agent.hostname < b.agent.hostname ? -1 : a.agent.hostname > b.agent.hostname ? 1 : 0),
    );
}

/**
 * The agent a session needing `need` goes to: the first of rankAgents. When none fits, every
 * agent's reason.
 */
export function chooseAgent<A extends AgentResources>(
  agents: readonly A[],
  need: Resources,
): AgentChoice<A> {
  const candidates = rankAgents(agents, need);
  if (candidates.length > 0) return candidates[0];
  const refusals = [...agents]
    .sort((a, b) => (a.hostname < b.hostname ? -1 : 1))
    .map((agent) => {
      const free = agentFree(agent);
      const short = [
        free.cores + EPSILON < need.cores ? `${free.cores} free cores, needs ${need.cores}` : null,
        free.memory < need.memory ? `${free.memory} bytes free memory, needs ${need.memory}` : null,
      ];
      return { hostname: agent.hostname, reason: short.filter(Boolean).join('; ') };
    });
  return { agent: null, refusals };
}
