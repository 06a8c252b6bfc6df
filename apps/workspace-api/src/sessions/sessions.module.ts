import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { RoundObserver } from '@platform/metrics';
import { toUuid } from '@platform/schemas';
import type { Tracer } from '@platform/tracing';
import type { AgentsRepository } from '../agents';
import type { Config } from '../config';
import type { Database } from '../db';
import type { Engines } from '../engines';
import type { LaunchPlanService } from '../launch-plan';
import { createActingRule, type ActingSources } from './acting-for-user';
import { createKasmReads, type KasmOwners } from './kasm-owners';
import { createKasmsRepository } from './kasms.repository';
import type { LaunchAllowances, LaunchUsers } from './launch-ports';
import { createLaunchQueue } from './launch-queue';
import { createLaunchSession } from './launch-session';
import { createSessionDisplays } from './session-display';
import { createWaitReads } from './launch-wait-status';
import { createLaunchWaitsRepository } from './launch-waits.repository';
import { WAIT_FAILURE_KEPT_MS } from './queued-launch';
import { createSessionLauncher, type LaunchObserver } from './session-launcher';
import { createSessionWorker } from './session-worker';
import { createSessionsOverview } from './sessions-overview';
import { createSessionsService } from './sessions.service';
import { createSocketHop } from './socket-hop';
import { createStagedClaims } from './staged-claim';
import { createStagedPools } from './staged-pools';

/** What the sessions feature is built from: the database, engines and the other features' ports. */
export interface SessionsFeatureDeps {
  config: Config;
  database: Database;
  engines: Engines;
  /** The repositories that own a session's user, workspace, agent and zone, and the rules a launch reads. */
  data: KasmOwners & {
    agents: AgentsRepository;
    users: Pick<LaunchUsers, 'lockForLaunch'> & {
      findById: ActingSources['findUser'];
      exists(userId: string): Promise<boolean>;
    };
    groups: LaunchAllowances & Pick<ActingSources, 'permissionsOf'>;
  };
  launchPlans: LaunchPlanService;
  /** The user's default workspace (attributes), for a request_kasm that names none. */
  defaultImageOf: LaunchUsers['defaultImageOf'];
  /** Told of each launch's phases and outcome (metrics). */
  observer: LaunchObserver;
  log: FastifyBaseLogger;
  tracer: Tracer;
}

/**
 * The sessions feature, wired from its ports: the launch (request_kasm's use case), the sessions
 * service for everything after it, the launcher, staging's pools and the background worker. app.ts gets this one object.
 */
export async function createSessionsFeature(deps: SessionsFeatureDeps) {
  const { config, database, engines, data, launchPlans, log, tracer } = deps;
  const kasms = createKasmsRepository(database);
  const waits = createLaunchWaitsRepository(database);
  const reads = createKasmReads(kasms, data);
  const socketHop = createSocketHop(config.SESSION_SOCKETS_DIR);
  await socketHop.open();
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`.slice(-64);
  const leaseMs = config.SESSION_LEASE_SECONDS * 1000;
  const parts = { kasms, reads, socketHop, engines, agents: data.agents, owner, leaseMs, log };

  const launcher = createSessionLauncher({
    ...parts,
    tracer,
    observer: deps.observer,
    launchTimeoutMs: config.SESSION_LAUNCH_TIMEOUT_SECONDS * 1000,
    keepaliveMs: config.SESSION_KEEPALIVE_SECONDS * 1000,
    profiles: {
      root: config.PROFILE_ROOT,
      user: { uid: config.PROFILE_UID, gid: config.PROFILE_GID },
    },
  });
  // Who holds a session's grants and sockets (session-proxy) asks to be told when its access ends.
  const accessEnders: ((kasmId: string) => void)[] = [];
  const mayActAs = createActingRule({
    findUser: (id) => data.users.findById(id),
    permissionsOf: (userId) => data.groups.permissionsOf(userId),
  });
  const users: LaunchUsers = {
    mayActAs,
    defaultImageOf: deps.defaultImageOf,
    lockForLaunch: (tx, userId) => data.users.lockForLaunch(tx, userId),
  };
  const allowances: LaunchAllowances = {
    sessionLimit: (tx, userId) => data.groups.sessionLimit(tx, userId),
  };

  const launchSession = createLaunchSession({
    config,
    users,
    allowances,
    plans: launchPlans,
    agents: data.agents,
    records: kasms,
    staging: createStagedClaims({
      config,
      users,
      allowances,
      kasms,
      agents: data.agents,
      launchPlans,
    }),
    launcher,
    turns: createLaunchQueue({
      concurrency: Math.min(config.LAUNCH_CONCURRENCY, config.DATABASE_POOL_MAX),
      maxWaiting: config.LAUNCH_QUEUE_MAX,
      maxWaitMs: config.LAUNCH_QUEUE_WAIT_SECONDS * 1000,
    }),
    waits,
    usernameOf: async (userId) =>
      (await data.users.ownersOf([toUuid(userId)])).get(toUuid(userId))?.username ?? '',
    log,
    owner,
    tracer,
  });
  const sessions = createSessionsService({
    ...parts,
    config,
    userExists: (userId) => data.users.exists(userId),
    mayActAs,
    endAccess: (kasmId) => accessEnders.forEach((end) => end(kasmId)),
    waits,
    waitReads: createWaitReads(waits, data),
  });
  const stagedPools = createStagedPools({ ...parts, config, launchPlans, launcher, sessions });

  return {
    kasms,
    socketHop,
    launchSession,
    sessions,
    stagedPools,
    reads,
    /** The fleet at a glance, for the console's overview. */
    overview: createSessionsOverview({ kasms, owners: data }),
    /** The way to a running session's display for programs (session-driver). */
    displays: createSessionDisplays({ reads, socketHop, mayActAs }),
    /** Calls `end` with each session whose access ends (ended, slept, revoked, its user locked). */
    onAccessEnded: (end: (kasmId: string) => void) => void accessEnders.push(end),
    /** The lifecycle worker, with more background work done in its rounds (icons, staging). */
    worker: (steps: (readonly [string, () => Promise<void>])[], rounds?: RoundObserver) =>
      createSessionWorker({
        ...parts,
        sessions,
        intervalMs: config.SESSION_SWEEP_INTERVAL_MS,
        rounds,
        steps: [
          ['grant sweep', async () => void (await kasms.sweepGrants())],
          [
            'launch wait sweep',
            async () => void (await waits.sweep(new Date(Date.now() + WAIT_FAILURE_KEPT_MS))),
          ],
          ...steps,
        ],
      }),
    /** Waits for the launches under way. */
    close: () => launcher.close(),
  };
}
export type SessionsFeature = Awaited<ReturnType<typeof createSessionsFeature>>;
