import { agentResources, type AgentRow } from '../agents';
import type { Tx } from '../db';
import { SessionLimitReachedError, UserNotFoundError } from '../errors';
import type { KasmsRepository } from './kasms.repository';

/** Live sessions a user may hold when none of their groups sets max_kasms_per_user. */
export const DEFAULT_SESSION_LIMIT = 2;

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

export interface LaunchSlotDeps {
  kasms: Pick<KasmsRepository, 'countLive'>;
  lockUser: (tx: Tx, userId: string) => Promise<boolean>;
  sessionLimit: (tx: Tx, userId: string) => Promise<number | null>;
}

/** Locks the user for the launch in `tx` and refuses one past their session limit. */
export async function holdLaunchSlot(
  deps: LaunchSlotDeps,
  tx: Tx,
  wireUserId: string,
  userId: string,
) {
  if (!(await deps.lockUser(tx, userId))) throw new UserNotFoundError(`user_id ${wireUserId}`);
  const limit = (await deps.sessionLimit(tx, userId)) ?? DEFAULT_SESSION_LIMIT;
  const live = await deps.kasms.countLive(userId, tx);
  if (live >= limit) {
    throw new SessionLimitReachedError(
      `The user has ${live} live sessions and may hold ${limit}; destroy one first`,
    );
  }
}
