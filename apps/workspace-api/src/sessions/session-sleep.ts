import { chooseAgent, agentResources, type AgentsRepository } from '../agents';
import type { Config } from '../config';
import type { AuditRecorder } from '../db';
import { EngineError, type Engines } from '../engines';
import { EngineFailedError, KasmCannotResumeError, KasmNotRunningError } from '../errors';
import type { KasmReads, KasmWithOwners } from './kasm-owners';
import type { KasmsRepository } from './kasms.repository';
import { recordedMove } from './session-audit';
import { containerEndpoint } from './session-endpoint';
import { settlePin } from './pinned-tls';
import { waitUntilServing } from './session-ready';

export interface SleepDeps {
  config: Config;
  kasms: KasmsRepository;
  reads: KasmReads;
  agents: AgentsRepository;
  engines: Engines;
  owner: string;
  /** Ends what this process holds open of a session's access: proxy caches and WebSockets. */
  endAccess: (kasmId: string) => void;
}

/** Engine refusals become the plain 502 every session operation answers. */
async function onEngine<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof EngineError) throw new EngineFailedError(error.message);
    throw error;
  }
}

/**
 * Kasm's stop, pause and resume. Stopped keeps the container and its disk and frees the
 * session's reservation on its agent; paused freezes its processes and keeps the reservation;
 * resume brings either back to running on the same agent. Each move is a conditional update from
 * the status it expects, so a destroy or the reaper elsewhere wins cleanly. With `audit`, the
 * API's event is written in one transaction with the move that ends the operation (to stopped,
 * paused or running), after the engine acted.
 */
export function createSessionSleep(deps: SleepDeps) {
  const { config, kasms, reads, agents, engines, owner } = deps;
  const leaseMs = config.SESSION_LEASE_SECONDS * 1000;
  const launchMs = config.SESSION_LAUNCH_TIMEOUT_SECONDS * 1000;

  /** Access ends first: the proxy refuses a session that is not running. */
  async function endAccess(id: string) {
    await kasms.deleteGrants(id);
    deps.endAccess(id);
  }

  const containerOf = (row: KasmWithOwners): string => {
    if (!row.containerId) throw new KasmNotRunningError(`The session is ${row.status}`);
    return row.containerId;
  };

  async function stop(row: KasmWithOwners, audit?: AuditRecorder | null): Promise<void> {
    if (row.status === 'stopped') return;
    if (row.status !== 'running' && row.status !== 'paused')
      throw new KasmNotRunningError(
        `The session is ${row.status}; only a running or paused session stops`,
      );
    const engine = engines.forAgent(row.agent);
    const containerId = containerOf(row);
    await endAccess(row.id);
    if (row.status === 'paused') await onEngine(engine.unpause(containerId));
    await onEngine(engine.stop(containerId));
    const from = row.status;
    const moved = await recordedMove(kasms, audit, row, (tx) =>
      kasms.transition(row.id, [from], { status: 'stopped', hostPort: null }, undefined, tx),
    );
    if (!moved) throw new KasmNotRunningError('The session changed while it was being stopped');
  }

  async function pause(row: KasmWithOwners, audit?: AuditRecorder | null): Promise<void> {
    if (row.status === 'paused') return;
    if (row.status !== 'running')
      throw new KasmNotRunningError(`The session is ${row.status}; only a running session pauses`);
    const containerId = containerOf(row);
    await endAccess(row.id);
    await onEngine(engines.forAgent(row.agent).pause(containerId));
    const moved = await recordedMove(kasms, audit, row, (tx) =>
      kasms.transition(row.id, ['running'], { status: 'paused' }, undefined, tx),
    );
    if (!moved) {
      // Destroyed meanwhile (its container is going) or already moved on: nothing to undo here.
      throw new KasmNotRunningError('The session changed while it was being paused');
    }
  }

  /** Reserves the session's cores and memory on its agent again, and claims it for the start. */
  async function reserveAgain(row: KasmWithOwners): Promise<void> {
    const reason = await kasms.transaction(async (tx) => {
      // Every placement onto the agent holds this lock until it commits: what it reserves is read after.
      await agents.lockOne(tx, row.agentId, { skipLocked: false });
      const [agent, reserved] = await Promise.all([
        agents.find(row.agentId, tx),
        kasms.reservations(tx),
      ]);
      if (!agent || !agent.dockerUrl) return 'its agent no longer has an engine';
      if (agent.status !== 'online') return `its agent ${agent.hostname} is ${agent.status}`;
      const resources = agentResources(agent);
      const taken = reserved.get(agent.id) ?? { cores: 0, memory: 0 };
      const choice = chooseAgent(
        [
          {
            ...resources,
            allocatedCores: resources.allocatedCores + taken.cores,
            allocatedMemory: resources.allocatedMemory + taken.memory,
          },
        ],
        { cores: row.cores, memory: Number(row.memory) },
      );
      if (choice.agent === null) {
        return `its agent ${agent.hostname} lacks room now (${choice.refusals[0].reason})`;
      }
      const claimed = await kasms.transition(
        row.id,
        ['stopped'],
        {
          status: 'starting',
          leaseOwner: owner,
          // The start and the wait for the server: a dead process's claim is swept after that.
          leaseUntil: new Date(Date.now() + launchMs + leaseMs),
        },
        undefined,
        tx,
      );
      return claimed ? null : 'it changed while it was being resumed';
    });
    if (reason) throw new KasmCannotResumeError(`The session cannot resume: ${reason}`);
  }

  async function startAgain(row: KasmWithOwners, audit?: AuditRecorder | null): Promise<void> {
    const engine = engines.forAgent(row.agent);
    const containerId = containerOf(row);
    const endpoint = containerEndpoint(row, 0);
    try {
      const hostPort = await engine.start(containerId, endpoint.port);
      const deadline = Date.now() + launchMs;
      const answer = await waitUntilServing(endpoint.host, hostPort, endpoint.scheme, deadline);
      if (!answer) {
        throw new KasmCannotResumeError(
          `The session's server never answered on port ${endpoint.port} after it started again`,
        );
      }
      const settled = settlePin(row.tlsIssuedSha256, row.tlsPinSha256, answer.certificate);
      if ('refused' in settled) throw new KasmCannotResumeError(settled.refused);
      const now = Date.now();
      const expiresAt = now + config.SESSION_KEEPALIVE_SECONDS * 1000;
      const moved = await recordedMove(kasms, audit, row, (tx) =>
        kasms.transition(
          row.id,
          ['starting'],
          {
            status: 'running',
            statusMessage: '',
            hostPort,
            tlsPinSha256: settled.pin,
            lastInputAt: new Date(now),
            expiresAt: new Date(Math.min(expiresAt, row.hardExpiresAt.getTime())),
            leaseOwner: null,
            leaseUntil: null,
          },
          owner,
          tx,
        ),
      );
      // Our lease ran out and the reaper put the session back to stopped: its container stops too.
      if (!moved) throw new KasmCannotResumeError('The session changed while it was being resumed');
    } catch (error) {
      // Back to stopped (reserving nothing), so that the user may try again or destroy it. Only
      // our own sentences reach the session; anything else stays in the log.
      await engine.stop(containerId).catch(() => undefined);
      const message =
        error instanceof KasmCannotResumeError || error instanceof EngineError
          ? error.message
          : 'The session failed to start again (RESUME_FAILED)';
      await kasms.transition(
        row.id,
        ['starting'],
        { status: 'stopped', statusMessage: message, leaseOwner: null, leaseUntil: null },
        owner,
      );
      if (error instanceof EngineError) throw new EngineFailedError(error.message);
      throw error;
    }
  }

  /**
   * A resume whose process died, claimed by this process (the reaper): back to stopped, keeping
   * its container and disk. The container may have started before the process died.
   */
  async function stopAbandonedResume(row: KasmWithOwners): Promise<boolean> {
    await endAccess(row.id);
    await onEngine(engines.forAgent(row.agent).stop(containerOf(row)));
    return kasms.transition(
      row.id,
      ['starting'],
      {
        status: 'stopped',
        statusMessage:
          "The session's resume was interrupted (the server handling it stopped); it can be resumed again",
        hostPort: null,
        leaseOwner: null,
        leaseUntil: null,
      },
      owner,
    );
  }

  async function resume(row: KasmWithOwners, audit?: AuditRecorder | null): Promise<void> {
    await wake(row, audit);
    // The proxy's cached refusal ("the session is stopped") goes at once here; other replicas'
    // caches last a second.
    deps.endAccess(row.id);
  }

  async function wake(row: KasmWithOwners, audit?: AuditRecorder | null): Promise<void> {
    if (row.status === 'running') return;
    if (row.status === 'paused') {
      await onEngine(engines.forAgent(row.agent).unpause(containerOf(row)));
      const now = new Date();
      const moved = await recordedMove(kasms, audit, row, (tx) =>
        kasms.transition(
          row.id,
          ['paused'],
          { status: 'running', lastInputAt: now },
          undefined,
          tx,
        ),
      );
      if (!moved) throw new KasmCannotResumeError('The session changed while it was being resumed');
      return;
    }
    if (row.status !== 'stopped')
      throw new KasmCannotResumeError(
        `The session is ${row.status}; only a stopped or paused session resumes`,
      );
    await reserveAgain(row);
    await startAgain(row, audit);
  }

  return {
    stop,
    pause,
    resume,
    stopAbandonedResume,
    /** The session as it is after the operation. */
    after: async (row: KasmWithOwners) => (await reads.find(row.id)) ?? row,
  };
}
export type SessionSleep = ReturnType<typeof createSessionSleep>;
