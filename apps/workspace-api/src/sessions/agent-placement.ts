import {
  agentCapacity,
  type AgentRow,
  type AgentsRepository,
  chooseAgent,
  rankAgents,
} from '../agents';
import { savepoint, type Tx } from '../db';
import { NoAgentAvailableError } from '../errors';
import type { LaunchPlan } from '../launch-plan';
import { agentOffer, usableAgents } from './agent-offers';
import type { KasmsRepository } from './kasms.repository';

export type AgentOffer = ReturnType<typeof agentOffer>;
export type Refusal = { hostname: string; reason: string };
/** Plans the session over the agents offered (throws when none fits, as planIn does). */
export type Planner = (offers: AgentOffer[], refusals: Refusal[]) => Promise<LaunchPlan>;

export interface PlacementDeps {
  agents: Pick<AgentsRepository, 'list' | 'lockOne'>;
  kasms: Pick<KasmsRepository, 'reservations'>;
}

/** Placing gives up after this many agents filled up under it, each by other launches. */
const MAX_ATTEMPTS = 10;

/** The agents a session may go to, as offers with what is reserved on them, and why the others may not. */
async function offersIn(deps: PlacementDeps, tx: Tx, zoneId: string | undefined) {
  const [rows, reserved] = await Promise.all([deps.agents.list(tx), deps.kasms.reservations(tx)]);
  const { usable, refusals } = usableAgents(rows, zoneId);
  return { usable, offers: usable.map((agent) => agentOffer(agent, reserved)), refusals };
}

/**
 * Places a session inside `tx`, locking only the agent it goes to. It plans over what is
 * committed, then locks the chosen agent: the best one no other launch holds (SKIP LOCKED), or,
 * when every one with room is held, waits for the best. Every launch onto an agent holds that
 * agent's lock until it commits, so the agent's sessions read after the lock are all there are:
 * the session goes there only if it still fits. If it does not, a savepoint rollback lets the
 * agent go (a transaction never holds two agents, so launches never deadlock) and it plans again.
 */
export async function placeSession(
  deps: PlacementDeps,
  tx: Tx,
  zoneId: string | undefined,
  planWith: Planner,
): Promise<{ plan: LaunchPlan; agent: AgentRow }> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const seen = await offersIn(deps, tx, zoneId);
    const plan = await planWith(seen.offers, seen.refusals);
    const ranked = rankAgents(seen.offers, plan.resources).map((c) => c.agent.id);
    const order = [plan.agent.id, ...ranked.filter((id) => id !== plan.agent.id)];
    const point = await savepoint(tx);
    let lockedId: string | undefined;
    for (const id of order) {
      if (await deps.agents.lockOne(tx, id, { skipLocked: true })) {
        lockedId = id;
        break;
      }
    }
    if (!lockedId && (await deps.agents.lockOne(tx, plan.agent.id, { skipLocked: false })))
      lockedId = plan.agent.id;
    const now = await offersIn(deps, tx, zoneId);
    const offer = now.offers.find((o) => o.id === lockedId);
    const agent = now.usable.find((a) => a.id === lockedId);
    const fit = offer && chooseAgent([offer], plan.resources);
    if (agent && offer && fit?.agent) {
      // The savepoint stays: the commit ends it, one round trip fewer while the agent is held.
      // Another agent than planned, or the planned one as it is now: its plan says so.
      const placed =
        offer.id === plan.agent.id
          ? {
              ...plan,
              agent: { ...plan.agent, capacity: agentCapacity(offer), free: fit.free },
            }
          : await planWith([offer], now.refusals);
      return { plan: placed, agent };
    }
    await point.rollback();
  }
  throw new NoAgentAvailableError(
    `Every agent with room filled up while this session was being placed (${MAX_ATTEMPTS} tries); try again`,
  );
}
