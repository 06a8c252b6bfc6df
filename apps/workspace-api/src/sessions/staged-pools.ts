import { randomBytes, randomUUID } from 'node:crypto';
import { hashSecret, randomSecret } from '@platform/secrets';
import { toWireId } from '@platform/schemas';
import type { AgentsRepository } from '../agents';
import type { Config } from '../config';
import type { Tx } from '../db';
import { NoAgentAvailableError } from '../errors';
import type { LaunchPlanService } from '../launch-plan';
import { placeSession } from './agent-placement';
import { kasmAgent, type KasmReads, type KasmWithOwners } from './kasm-owners';
import type { KasmsRepository } from './kasms.repository';
import type { SessionLauncher } from './session-launcher';
import type { SessionsService } from './sessions.service';

/** A staging config as the pools need it. */
export interface StagingPool {
  id: string;
  zoneId: string;
  imageId: string;
  numSessions: number;
  expirationHours: number;
}

export interface StagedPoolsDeps {
  config: Pick<Config, 'SESSION_LAUNCH_TIMEOUT_SECONDS'>;
  kasms: KasmsRepository;
  reads: KasmReads;
  agents: Pick<AgentsRepository, 'lockOne' | 'list'>;
  launchPlans: Pick<LaunchPlanService, 'planStaged' | 'configFingerprint'>;
  launcher: SessionLauncher;
  sessions: Pick<SessionsService, 'stopClaimed'>;
  owner: string;
  leaseMs: number;
}

/** The workspace keeps a profile per user: a session started for nobody cannot have one. */
export class StagingRefusedError extends Error {}

/** Sessions started per config and round: a large pool fills over a few rounds. */
const FILL_BATCH = 5;

/** Starts staged sessions up to each config's number, and retires those no config wants. */
export function createStagedPools(deps: StagedPoolsDeps) {
  const { config, kasms, reads, agents, launchPlans, launcher, owner } = deps;

  /** Stops a staged session unless a user took it meanwhile. */
  async function retire(id: string): Promise<boolean> {
    if (!(await kasms.retireStaged(id, owner, new Date(Date.now() + deps.leaseMs)))) return false;
    const row = await reads.find(id);
    if (row) await deps.sessions.stopClaimed(row);
    return true;
  }

  /**
   * Retires the config's unassigned sessions started before the workspace's run or exec config
   * or allowances changed: they would run the old ones. First, so that their room is free for
   * the sessions that replace them.
   */
  async function retireStale(pool: StagingPool): Promise<number> {
    const current = await launchPlans.configFingerprint(pool.imageId);
    let retired = 0;
    for (const row of await kasms.stagedOf(pool.id)) {
      const planned = (row.plan as { configFingerprint?: string } | null)?.configFingerprint;
      if (planned !== current && (await retire(row.id))) retired += 1;
    }
    return retired;
  }

  /**
   * Brings one config's unassigned sessions to its number: records the missing ones (placed
   * like any launch, so they count against the agents' capacity) and starts them, or retires
   * the newest of a surplus. A lock per config keeps replicas from filling it twice.
   */
  async function fill(pool: StagingPool): Promise<{ started: number; retired: number }> {
    const stale = await retireStale(pool);
    const { rows, surplus } = await kasms.transaction(
      async (tx) => {
        await kasms.lockStagingPool(tx, pool.id);
        const staged = await kasms.stagedOf(pool.id, tx);
        if (staged.length >= pool.numSessions) {
          return { rows: [], surplus: staged.slice(0, staged.length - pool.numSessions) };
        }
        const made: KasmWithOwners[] = [];
        const missing = Math.min(pool.numSessions - staged.length, FILL_BATCH);
        for (let i = 0; i < missing; i += 1) {
          const id = randomUUID();
          let placed: Awaited<ReturnType<typeof placeSession>>;
          try {
            // Placed as a launch is (one agent locked at a time; the sessions made before in
            // this transaction count), so staged sessions take their room like any other.
            placed = await placeSession({ agents, kasms }, tx, pool.zoneId, (offers) =>
              launchPlans.planStaged(tx, pool.imageId, {
                sessionId: toWireId(id),
                agents: offers,
              }),
            );
          } catch (error) {
            // Room for some: those start now, the rest when room is made.
            if (error instanceof NoAgentAvailableError && made.length > 0) break;
            throw error;
          }
          const { plan, agent } = placed;
          if (plan.persistentProfilePath !== null) {
            throw new StagingRefusedError(
              'The workspace keeps a persistent profile per user: its sessions are not staged',
            );
          }
          const now = Date.now();
          const life =
            config.SESSION_LAUNCH_TIMEOUT_SECONDS * 1000 + pool.expirationHours * 3600_000;
          const row = await kasms.insert(tx, {
            id,
            userId: null,
            stagingConfigId: pool.id,
            imageId: pool.imageId,
            agentId: plan.agent.id,
            cores: plan.resources.cores,
            memory: BigInt(plan.resources.memory),
            plan: plan as unknown as object,
            // Nobody holds a connect token to a staged session: its user gets one when taking it.
            tokenHash: hashSecret(randomSecret(32)),
            containerSecret: randomBytes(18).toString('hex'),
            leaseOwner: owner,
            leaseUntil: new Date(now + deps.leaseMs),
            expiresAt: new Date(now + life),
            hardExpiresAt: new Date(now + life),
          });
          const { image } = plan;
          made.push({
            ...row,
            user: { username: '' },
            image: { id: image.id, name: image.name, friendlyName: image.friendlyName },
            agent: kasmAgent(agent, plan.agent.zone.name),
          });
        }
        return { rows: made, surplus: [] };
      },
      { maxWait: 20_000, timeout: 30_000 },
    );
    for (const row of rows) launcher.launch(row, { environment: {} });
    let retired = 0;
    for (const { id } of surplus) if (await retire(id)) retired += 1;
    return { started: rows.length, retired: retired + stale };
  }

  return {
    fill,

    /** Retires the unassigned sessions of deleted configs; how many. */
    async retireOrphans(): Promise<number> {
      let retired = 0;
      for (const { id } of await kasms.stagedWithoutConfig()) if (await retire(id)) retired += 1;
      return retired;
    },

    /** Unassigned live sessions per staging config id. */
    stagedCounts: (tx?: Tx) => kasms.stagedCounts(tx),
  };
}
export type StagedPools = ReturnType<typeof createStagedPools>;
