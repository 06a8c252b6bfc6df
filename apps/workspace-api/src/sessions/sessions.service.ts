import { hashSecret, randomSecret } from '@platform/secrets';
import { toUuid, toWireId } from '@platform/schemas';
import type { AgentsRepository } from '../agents';
import type { KeyGrant } from '../api-keys';
import type { Config } from '../config';
import type { AuditRecorder } from '../db';
import type { ActingRule } from './acting-for-user';
import { assertMayRun } from './exec-rule';
import { EngineError, type Engines } from '../engines';
import {
  EngineFailedError,
  ForbiddenError,
  KasmNoDisplayError,
  KasmNotFoundError,
  KasmNotRunningError,
  UserNotFoundError,
} from '../errors';
import { type LaunchPlan, sessionUrlFor } from '../launch-plan';
import { LIVE_STATUSES, type RequestHost } from '../domain';
import type { KasmReads, KasmWithOwners } from './kasm-owners';
import type { KasmsRepository } from './kasms.repository';
import type { WaitReads, WaitStatus } from './launch-wait-status';
import type { LaunchWaitsRepository } from './launch-waits.repository';
import { withToken } from './launch-session';
import { endUserAccess } from './end-user-access';
import { containerEndpoint } from './session-endpoint';
import { ScreenUnreadableError } from './display-stream';
import { readScreen, screenJpeg } from './session-screen';
import { recordedMove } from './session-audit';
import { createSessionSleep } from './session-sleep';
import type { ExecCommandBody } from './sessions.schemas';
import type { SocketHop } from './socket-hop';

/** How long reading a session's screen may take: its display answers in well under a second. */
const SCREEN_TIMEOUT_MS = 10_000;

export interface SessionsDeps {
  config: Config;
  kasms: KasmsRepository;
  /** Sessions with their owners, each read from its repository. */
  reads: KasmReads;
  agents: AgentsRepository;
  engines: Engines;
  owner: string;
  /** Whether a user has the id (users). */
  userExists: (userId: string) => Promise<boolean>;
  /** The session folders of the socket hop, removed with their sessions. */
  socketHop: SocketHop;
  /** Ends what this process holds open of a session's access: proxy caches and WebSockets. */
  endAccess: (kasmId: string) => void;
  /** Whether the caller may act as the user (acting-for-user.ts). */
  mayActAs: ActingRule;
  /** Launches answered before their turn: what get_kasm_status shows, what destroy_kasm cancels. */
  waits: Pick<LaunchWaitsRepository, 'cancel'>;
  waitReads: WaitReads;
}

const isLive = (status: string) => (LIVE_STATUSES as readonly string[]).includes(status);

export function createSessionsService(deps: SessionsDeps) {
  const { config, kasms, reads, engines, owner } = deps;
  const leaseMs = config.SESSION_LEASE_SECONDS * 1000;
  const sleep = createSessionSleep(deps);

  async function findOwned(kasmId: string, userId?: string): Promise<KasmWithOwners | null> {
    const row = await reads.find(toUuid(kasmId));
    return !row || (userId !== undefined && row.userId !== toUuid(userId)) ? null : row;
  }

  async function load(kasmId: string, userId?: string): Promise<KasmWithOwners> {
    const row = await findOwned(kasmId, userId);
    if (!row) {
      throw new KasmNotFoundError(`kasm_id ${kasmId}${userId ? ` of user_id ${userId}` : ''}`);
    }
    return row;
  }

  /**
   * The session, or the launch still waiting its turn under its id. The session row replaces the
   * wait in one transaction, so a miss of both is looked at once more before it is a 404.
   */
  async function loadOrWait(
    kasmId: string,
    userId?: string,
  ): Promise<{ row: KasmWithOwners } | { wait: WaitStatus }> {
    const row = await findOwned(kasmId, userId);
    if (row) return { row };
    const wait = await deps.waitReads.find(toUuid(kasmId), userId && toUuid(userId));
    return wait ? { wait } : { row: await load(kasmId, userId) };
  }

  /** Stops a session that this process has claimed (status stopping, lease ours). */
  async function stopClaimed(row: Pick<KasmWithOwners, 'id' | 'agent'>): Promise<void> {
    // Access ends before the container does, also when removing it fails.
    await kasms.deleteGrants(row.id);
    deps.endAccess(row.id);
    try {
      await engines.forAgent(row.agent).removeSession(toWireId(row.id));
      await deps.socketHop.remove(row.id);
    } catch (error) {
      // The claim stays stopping; its lease runs out and a sweep tries again.
      if (error instanceof EngineError) throw new EngineFailedError(error.message);
      throw error;
    }
    await kasms.transition(row.id, ['stopping'], {
      status: 'destroyed',
      stoppedAt: new Date(),
      leaseOwner: null,
      leaseUntil: null,
    });
  }

  /** A link into a session acts as its owner: only for a caller who holds what they hold. */
  async function mayActAsOwner(row: KasmWithOwners, grantor: KeyGrant | undefined) {
    if (!row.userId) return true;
    return deps.mayActAs(row.userId, grantor).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ForbiddenError) return false;
        throw error;
      },
    );
  }

  /**
   * Claims the session for removal (stopping), with `audit` in one transaction with the API's
   * event, then removes it: a claim is never undone (a sweep finishes one whose removal failed).
   */
  async function destroyRow(row: KasmWithOwners, audit?: AuditRecorder | null): Promise<void> {
    const claimed = await recordedMove(kasms, audit, row, (tx) =>
      kasms.transition(
        row.id,
        [...LIVE_STATUSES].filter((s) => s !== 'stopping'),
        { status: 'stopping', leaseOwner: owner, leaseUntil: new Date(Date.now() + leaseMs) },
        undefined,
        tx,
      ),
    );
    if (claimed || row.status === 'stopping') await stopClaimed(row);
  }

  return {
    /**
     * The session, and with `newLink` a fresh connect link while it is live (the previous link
     * stops working). Without it the current link stays as it is: only a caller who may act as
     * the user (users.auth_session, or the user themselves) gets a way into their desktop.
     */
    async status(
      kasmId: string,
      userId: string | undefined,
      {
        newLink,
        requestHost,
        grantor,
      }: { newLink: boolean; requestHost: RequestHost; grantor?: KeyGrant },
    ) {
      const found = await loadOrWait(kasmId, userId);
      if ('wait' in found) return found;
      const { row } = found;
      // Kasm forgets a destroyed session: its clients know no "destroyed" status, only "not found".
      if (row.status === 'destroyed') throw new KasmNotFoundError(`kasm_id ${kasmId}`);
      let kasmUrl: string | null = null;
      if (newLink && isLive(row.status) && (await mayActAsOwner(row, grantor))) {
        const token = randomSecret(32);
        await kasms.transition(row.id, [...LIVE_STATUSES], { tokenHash: hashSecret(token) });
        kasmUrl = withToken(sessionUrlFor(row.plan as unknown as LaunchPlan, requestHost), token);
      }
      return { row, kasmUrl };
    },

    listLive: (userId?: string) => reads.listLive(userId && toUuid(userId)),

    /** The user's live sessions: most users have none, which one index-only probe tells. */
    async liveOf(userId: string): Promise<KasmWithOwners[]> {
      const id = toUuid(userId);
      return (await kasms.hasLive(id)) ? reads.listLive(id) : [];
    },

    /** The user's live sessions (get_user_kasms); USER_NOT_FOUND when no user has the id. */
    async listLiveOf(userId: string) {
      if (!(await deps.userExists(toUuid(userId))))
        throw new UserNotFoundError(`user_id ${userId}`);
      return reads.listLive(toUuid(userId));
    },

    /** The session as stored, without a new connect link (the web page polls this). */
    find: (kasmId: string, userId?: string) => load(kasmId, userId),
    findOrWait: (kasmId: string, userId?: string) => loadOrWait(kasmId, userId),

    /** With `audit` (here, in destroy and sleepOrWake), the API's event is written with the change. */
    async keepalive(kasmId: string, userId?: string, audit?: AuditRecorder | null) {
      const row = await load(kasmId, userId);
      if (row.status !== 'running') throw new KasmNotRunningError(`The session is ${row.status}`);
      const now = Date.now();
      const wanted = now + config.SESSION_KEEPALIVE_SECONDS * 1000;
      const expiresAt = new Date(Math.min(wanted, row.hardExpiresAt.getTime()));
      await recordedMove(kasms, audit, row, (tx) =>
        kasms.transition(
          row.id,
          ['running'],
          { expiresAt, keepaliveAt: new Date(now) },
          undefined,
          tx,
        ),
      );
      return { usageReached: wanted >= row.hardExpiresAt.getTime(), expiresAt };
    },

    /**
     * exec_command_kasm: as root or privileged only for a `grantor` holding global_admin; a
     * command still running after EXEC_COMMAND_TIMEOUT_SECONDS is killed with its children.
     */
    async exec(input: ExecCommandBody, grantor?: KeyGrant) {
      const row = await load(input.kasm_id, input.user_id);
      if (row.userId) await deps.mayActAs(row.userId, grantor);
      const containerId = row.containerId;
      if (row.status !== 'running' || !containerId) {
        throw new KasmNotRunningError(`The session is ${row.status}`);
      }
      const command = input.exec_config;
      const engine = engines.forAgent(row.agent);
      const user = command.user ?? undefined;
      let result;
      try {
        await assertMayRun(grantor, command, () => engine.runsAsRoot(containerId, user));
        result = await engine.exec(containerId, {
          cmd: command.cmd,
          env: command.environment ?? undefined,
          workdir: command.workdir ?? undefined,
          user,
          privileged: command.privileged ?? false,
          timeoutMs: config.EXEC_COMMAND_TIMEOUT_SECONDS * 1000,
        });
      } catch (error) {
        if (error instanceof EngineError) throw new EngineFailedError(error.message);
        throw error;
      }
      // The session as it is once the command ended, as get_kasm_status would give it.
      return { ...result, row: (await reads.find(row.id)) ?? row };
    },

    /** Destroys the session, or cancels the launch while it waits its turn. */
    async destroy(kasmId: string, userId?: string, audit?: AuditRecorder | null): Promise<void> {
      const row = await findOwned(kasmId, userId);
      if (!row && (await deps.waits.cancel(toUuid(kasmId), userId && toUuid(userId)))) return;
      await destroyRow(row ?? (await load(kasmId, userId)), audit);
    },

    /** stop_kasm, pause_kasm or resume_kasm; answers the session as it is afterwards. */
    async sleepOrWake(
      operation: 'stop' | 'pause' | 'resume',
      kasmId: string,
      userId?: string,
      audit?: AuditRecorder | null,
    ): Promise<KasmWithOwners> {
      const row = await load(kasmId, userId);
      await sleep[operation](row, audit);
      return sleep.after(row);
    },

    /** get_kasm_screenshot: the running session's screen as a JPEG, `width` pixels wide if given. */
    async screenshot(kasmId: string, userId: string | undefined, width?: number): Promise<Buffer> {
      const row = await load(kasmId, userId);
      if (row.status !== 'running' || !row.hostPort)
        throw new KasmNotRunningError(`The session is ${row.status}`);
      const endpoint = containerEndpoint(row, row.hostPort);
      try {
        const hop = { socketHop: deps.socketHop, kasmId: row.id };
        return screenJpeg(await readScreen(endpoint, hop, SCREEN_TIMEOUT_MS), width);
      } catch (error) {
        if (error instanceof ScreenUnreadableError) throw new KasmNoDisplayError(error.message);
        throw error;
      }
    },

    /** Stops or destroys a running session that sat idle past its workspace's limit. */
    async endIdle(kasmId: string, action: string): Promise<void> {
      const row = await reads.find(kasmId);
      if (!row || row.status !== 'running') return;
      if (action === 'destroy') await destroyRow(row);
      else await sleep.stop(row);
    },

    countLive: (userId: string) => kasms.countLive(toUuid(userId)),

    /** Destroys every live session of the user (delete_user with force). */
    async destroyAllOf(userId: string): Promise<void> {
      for (const row of await reads.listLive(toUuid(userId))) await destroyRow(row);
    },

    /**
     * Ends the user's way into their sessions (they were locked, disabled, deleted, signed out or
     * given a new password): grants and unspent links in the database, so every replica refuses
     * them at its next lookup, and this process's cached admissions and WebSockets at once.
     */
    async endAccessOf(userId: string): Promise<void> {
      for (const id of await endUserAccess(kasms, userId)) deps.endAccess(id);
    },

    stopClaimed,
    stopAbandonedResume: sleep.stopAbandonedResume,
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
