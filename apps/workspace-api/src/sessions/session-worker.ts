import type { FastifyBaseLogger } from 'fastify';
import type { RoundObserver } from '@platform/metrics';
import { createWorkerLoop } from '@platform/worker-loop';
import { toUuid } from '@platform/schemas';
import type { AgentsRepository } from '../agents';
import type { KasmStatus } from '../domain';
import { engineReason, type EngineAgent, type Engines } from '../engines';
import type { KasmReads } from './kasm-owners';
import type { KasmsRepository } from './kasms.repository';
import type { SessionsService } from './sessions.service';
import type { SocketHop } from './socket-hop';

export interface WorkerOptions {
  kasms: KasmsRepository;
  reads: KasmReads;
  agents: AgentsRepository;
  engines: Engines;
  sessions: SessionsService;
  /** The session folders of the socket hop, removed with orphaned containers. */
  socketHop: SocketHop;
  log: FastifyBaseLogger;
  owner: string;
  intervalMs: number;
  leaseMs: number;
  /** More background work done in the same rounds (e.g. fetching workspace icons). */
  steps?: (readonly [string, () => Promise<void>])[];
  /** Told of each scheduled round: how late it began, how long it ran. */
  rounds?: RoundObserver;
}

const CLAIM_BATCH = 20;
const WIRE_ID = /^[0-9a-f]{32}$/;

/**
 * The session lifecycle's background work, safe on every replica at once: each piece claims its
 * rows in the database (SKIP LOCKED, conditional updates), never by a timer per process.
 */
export function createSessionWorker(options: WorkerOptions) {
  const { kasms, reads, agents, engines, sessions, log, owner } = options;

  /** Checks each engine agent once per interval: detected resources, or offline with the reason. */
  async function heartbeat(): Promise<void> {
    const due = await agents.claimHeartbeats(options.intervalMs);
    await Promise.all(
      due.map(async (agent) => {
        try {
          await agents.recordOnline(agent.id, await engines.forAgent(agent).info());
        } catch (error) {
          // The engine's own words are in the log (engines.ts); the agent shows the plain reason.
          await agents.recordOffline(agent.id, engineReason(error));
        }
      }),
    );
  }

  /**
   * Stops expired sessions, and those whose launch or stop was abandoned by a dead process; an
   * abandoned resume goes back to stopped instead.
   */
  async function reap(): Promise<void> {
    const until = new Date(Date.now() + options.leaseMs);
    for (const { id } of await kasms.claimAbandonedResumes(owner, until, CLAIM_BATCH)) {
      const row = await reads.find(id);
      if (!row) continue;
      // An engine that fails keeps the claim: its lease runs out and a later round tries again.
      await sessions
        .stopAbandonedResume(row)
        .then((moved) => {
          if (moved) log.info({ kasmId: id }, 'abandoned resume put back to stopped');
        })
        .catch((error: unknown) =>
          log.warn({ err: error, kasmId: id }, 'abandoned resume not stopped'),
        );
    }
    const claimed = await kasms.claimForCleanup(owner, until, CLAIM_BATCH);
    for (const { id, previous } of claimed) {
      const row = await reads.find(id);
      if (!row) continue;
      log.info(
        { kasmId: id, previous },
        previous === 'running' ? 'session expired' : 'abandoned session cleaned up',
      );
      await sessions
        .stopClaimed(row)
        .catch((error: unknown) => log.warn({ err: error, kasmId: id }, 'session stop failed'));
    }
  }

  /** Networks of gone sessions that have no container (a create that failed half-way). */
  async function removeOrphanNetworks(agent: EngineAgent, withContainer: Set<string>) {
    const engine = engines.forAgent(agent);
    const ids = (await engine.listSessionNetworks()).filter(
      (id) => WIRE_ID.test(id) && !withContainer.has(toUuid(id)),
    );
    const known = new Map((await kasms.statusesOf(ids.map(toUuid))).map((k) => [k.id, k.status]));
    for (const id of ids) {
      const status = known.get(toUuid(id));
      if (status === undefined || status === 'destroyed' || status === 'error') {
        log.info({ kasmId: id }, 'orphan session network removed');
        await engine.removeSession(id);
      }
    }
  }

  /**
   * Removes labelled containers (and networks) with no live session; marks sessions whose container vanished
   * (running, paused or stopped) as failed.
   */
  async function reconcile(): Promise<void> {
    for (const agent of await agents.onlineEngines()) {
      const expected = await kasms.withContainerOn(agent.id);
      const containers = await engines.forAgent(agent).listSessions();
      const present = new Set(containers.map((c) => toUuid(c.sessionId)));
      const known = new Map((await kasms.statusesOf([...present])).map((k) => [k.id, k.status]));
      for (const container of containers) {
        const status = known.get(toUuid(container.sessionId));
        if (status === undefined || status === 'destroyed' || status === 'error') {
          log.info(
            { kasmId: container.sessionId, containerId: container.containerId },
            'orphan session container removed',
          );
          await engines.forAgent(agent).removeSession(container.sessionId);
          await options.socketHop.remove(container.sessionId);
        }
      }
      await removeOrphanNetworks(agent, present);
      for (const { id, status } of expected.filter((k) => !present.has(k.id))) {
        const marked = await kasms.transition(id, [status as KasmStatus], {
          status: 'error',
          statusMessage: 'The session container vanished from its agent',
          stoppedAt: new Date(),
        });
        if (marked) {
          log.warn({ kasmId: id }, 'session container vanished');
          await options.socketHop.remove(id);
        }
      }
    }
  }

  /** Stops (or destroys, as their workspace says) running sessions idle past its limit. */
  async function idle(): Promise<void> {
    for (const { id, action } of await kasms.idle(CLAIM_BATCH)) {
      log.info({ kasmId: id, action }, 'idle session ended');
      await sessions
        .endIdle(id, action)
        .catch((error: unknown) => log.warn({ err: error, kasmId: id }, 'idle session not ended'));
    }
  }

  async function round(): Promise<void> {
    for (const [name, step] of [
      ['session heartbeat', heartbeat],
      ['session reaper', reap],
      ['session idle limit', idle],
      ['session reconciler', reconcile],
      ...(options.steps ?? []),
    ] as const) {
      await step().catch((error: unknown) => log.warn({ err: error }, `${name} round failed`));
    }
  }

  // Every round does all its steps; the next waits a whole interval (each step claims its own).
  const loop = createWorkerLoop({
    intervalMs: options.intervalMs,
    runOnce: async () => {
      await round();
      return 0;
    },
    log,
    rounds: options.rounds,
  });

  return {
    /** One round now (tests, and start-up so that agents are checked before the first request). */
    round,
    start: () => loop.start(),
    stop: () => loop.stop(),
  };
}
export type SessionWorker = ReturnType<typeof createSessionWorker>;
