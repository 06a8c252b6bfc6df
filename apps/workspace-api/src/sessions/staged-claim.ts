import { hashSecret } from '@platform/secrets';
import { toUuid, toWireId } from '@platform/schemas';
import type { AgentsRepository } from '../agents';
import type { Config } from '../config';
import { recordedChange, type Tx } from '../db';
import { NoAgentAvailableError } from '../errors';
import type { LaunchPlan, LaunchPlanService } from '../launch-plan';
import type { RequestHost } from '../domain';
import { agentOffer } from './agent-offers';
import { kasmAgent, type KasmWithOwners } from './kasm-owners';
import { toKasmResponse } from './kasm-response';
import type { KasmsRepository } from './kasms.repository';
import type { LaunchAllowances, LaunchStaging, LaunchUsers } from './launch-ports';
import { holdLaunchSlot, withOwners } from './launch-session';
import { stagedFits } from './staged-fit';

export interface StagedClaimDeps {
  config: Pick<Config, 'SESSION_KEEPALIVE_SECONDS' | 'SESSION_TIME_LIMIT_SECONDS'>;
  users: Pick<LaunchUsers, 'lockForLaunch'>;
  allowances: LaunchAllowances;
  kasms: KasmsRepository;
  agents: Pick<AgentsRepository, 'find'>;
  launchPlans: Pick<LaunchPlanService, 'planIn'>;
}

/** Hands a running staged session to a request_kasm, or says there is none for it (null). */
export function createStagedClaims(deps: StagedClaimDeps): LaunchStaging {
  const { config, kasms, agents, launchPlans } = deps;
  return {
    /**
     * In one transaction: one staged session locked SKIP LOCKED, the user's launch slot (limit),
     * the user's own plan for it (access, the session's URL) and the hand-over. Null, with
     * nothing changed, when no staged session is there or the one found does not fit the user.
     */
    claim(
      input: Parameters<LaunchStaging['claim']>[0],
      token: string,
      requestHost: RequestHost,
      audit,
    ) {
      const userId = toUuid(input.user_id);
      const change = async (tx: Tx): Promise<KasmWithOwners | null> => {
        // Most requests find none: they leave after one indexed query, before any user lock.
        const zoneId = input.zone_id ? toUuid(input.zone_id) : null;
        const staged = await kasms.lockStaged(tx, toUuid(input.image_id), zoneId);
        if (!staged) return null;
        await holdLaunchSlot({ ...deps, records: kasms }, tx, input.user_id);
        const agent = await agents.find(staged.agentId, tx);
        if (!agent) return null;
        // The session's own reservation is already counted: its user's plan may use it.
        const reserved = await kasms.reservations(tx);
        const own = reserved.get(agent.id) ?? { cores: 0, memory: 0 };
        reserved.set(agent.id, {
          cores: own.cores - staged.cores,
          memory: own.memory - Number(staged.memory),
        });
        let plan: LaunchPlan;
        try {
          plan = await launchPlans.planIn(tx, input.user_id, input.image_id, {
            sessionId: toWireId(staged.id),
            requestHost,
            agents: [agentOffer(agent, reserved)],
          });
        } catch (error) {
          if (error instanceof NoAgentAvailableError) return null;
          throw error;
        }
        if (!stagedFits(plan, staged.plan as unknown as LaunchPlan)) return null;
        const now = Date.now();
        const row = await kasms.claimStaged(tx, staged.id, {
          userId,
          plan: plan as unknown as object,
          tokenHash: hashSecret(token),
          expiresAt: new Date(now + config.SESSION_KEEPALIVE_SECONDS * 1000),
          hardExpiresAt: new Date(now + config.SESSION_TIME_LIMIT_SECONDS * 1000),
        });
        return withOwners(row, plan, kasmAgent(agent, plan.agent.zone.name));
      };
      return recordedChange(kasms.transaction, audit, {
        change,
        after: (_tx, row) => row && toKasmResponse(row),
        changed: (row) => row !== null,
      });
    },
  };
}
