import { randomBytes, randomUUID } from 'node:crypto';
import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { toUuid, toWireId } from '@platform/schemas';
import { hashSecret, randomSecret } from '@platform/secrets';
import { inSpan } from '@platform/tracing';
import type { KeyGrant } from '../api-keys';
import { recordedChange, type AuditRecorder, type Tx } from '../db';
import type { RequestHost } from '../domain';
import { LaunchCancelledError, SessionLimitReachedError, UserNotFoundError } from '../errors';
import type { LaunchPlan } from '../launch-plan';
import { placeSession } from './agent-placement';
import { kasmAgent, type KasmWithOwners } from './kasm-owners';
import { toKasmResponse } from './kasm-response';
import type { LaunchAllowances, LaunchPorts, LaunchRecords, LaunchUsers } from './launch-ports';
import { createQueuedLaunches, type QueuedAnswer } from './queued-launch';
import type { RequestKasmBody } from './sessions.schemas';

/** Live sessions a user may hold when none of their groups sets max_kasms_per_user. */
export const DEFAULT_SESSION_LIMIT = 2;

/** What request_kasm answers: the session and the one link that opens it. */
export interface LaunchAnswer {
  kasm_id: string;
  status: string;
  user_id: string;
  username: string;
  session_token: string;
  kasm_url: string;
  share_id: string | null;
}

/** Kasm's share_id: 128 random bits; join_kasm also needs a key that may act as users. */
type Launch = RequestKasmBody & { image_id: string; share_id: string | null };

/**
 * request_kasm, top to bottom: check the request, take its turn (launch-queue.ts), hand over a
 * staged session if one fits, else reserve a new one (the user's slot, an agent, the plan, the
 * row, in one transaction) and start the launcher on it. The answer comes before the container
 * runs: clients poll get_kasm_status. A launch whose turn does not come within
 * LAUNCH_QUEUE_ANSWER_MS is answered `queued` with its kasm_id at once (queued-launch.ts).
 * With `audit`, the API's event is written in the transaction that reserves or hands over the
 * session (the session after it, as that transaction has it: no read more); the launcher starts
 * only once it committed. A launch answered `queued` is placed after its request has ended: its
 * event is the answer's, recorded as it is sent.
 */
export function createLaunchSession(ports: LaunchPorts) {
  const { config, users, plans, records, launcher, tracer } = ports;
  const answerQueued = createQueuedLaunches({ ...ports, waits: ports.waits });

  return async function launchSession(
    input: RequestKasmBody,
    requestHost: RequestHost,
    grantor?: KeyGrant,
    audit?: AuditRecorder | null,
  ): Promise<LaunchAnswer | QueuedAnswer> {
    const launch = await validate(input, grantor);
    const token = randomSecret(32);
    // Its database work in its turn: a burst waits here, holding no connection.
    const place = ports.turns.enter();
    if (!(await place.within(config.LAUNCH_QUEUE_ANSWER_MS).catch(leaving(place)))) {
      return answerQueued(place, launch, token, async (waitId) => {
        await start(launch, token, requestHost, null, waitId);
      });
    }
    try {
      const staged =
        stageable(launch) && (await ports.staging?.claim(launch, token, requestHost, audit));
      return answer(staged || (await start(launch, token, requestHost, audit)), launch, token);
    } finally {
      place.leave();
    }
  };

  /** Reserves a new session (under a queued launch's id, ending its wait) and launches it. */
  async function start(
    launch: Launch,
    token: string,
    requestHost: RequestHost,
    audit: AuditRecorder | null | undefined,
    waitId?: string,
  ) {
    const row = await inSpan(tracer, 'launch reserve', () =>
      reserve(launch, token, requestHost, audit, waitId),
    );
    launcher.launch(row, {
      environment: launch.environment ?? {},
      kasmUrl: launch.kasm_url ?? undefined,
    });
    return row;
  }

  /** The caller may act as the user, and the request names a workspace (or the user has one). */
  async function validate(input: RequestKasmBody, grantor?: KeyGrant): Promise<Launch> {
    await users.mayActAs(input.user_id, grantor, { launching: true });
    const imageId = input.image_id ?? (await users.defaultImageOf(input.user_id));
    const problems: FieldProblem[] = [];
    if (!imageId) {
      problems.push({
        field: 'image_id',
        message: 'is required: the user has no default_image attribute',
      });
    }
    if (problems.length > 0 || !imageId) {
      throw withFieldErrors(new ValidationFailedError('The request is invalid'), problems);
    }
    const shareId = input.enable_sharing ? randomBytes(16).toString('hex') : null;
    return { ...input, image_id: imageId, share_id: shareId };
  }

  /** Places the session and records it, in one transaction that locks the user and the one agent it goes to. */
  function reserve(
    launch: Launch,
    token: string,
    requestHost: RequestHost,
    audit: AuditRecorder | null | undefined,
    waitId?: string,
  ) {
    const userId = toUuid(launch.user_id);
    const id = waitId ?? randomUUID();
    const transact = <T>(
      work: (tx: Tx) => Promise<T>,
      options?: { audit?: AuditRecorder | null },
    ) => records.transaction(work, { maxWait: 20_000, timeout: 30_000, ...options });
    return recordedChange(transact, audit, {
      change: async (tx): Promise<KasmWithOwners> => {
        if (waitId && !(await ports.waits.take(tx, waitId))) {
          throw new LaunchCancelledError(
            `kasm_id ${toWireId(waitId)} was destroyed before its turn`,
          );
        }
        await holdLaunchSlot(ports, tx, launch.user_id);
        const zoneId = launch.zone_id ? toUuid(launch.zone_id) : undefined;
        const { plan, agent } = await placeSession(
          { agents: ports.agents, kasms: records },
          tx,
          zoneId,
          (offers, refusals) =>
            plans.planIn(tx, launch.user_id, launch.image_id, {
              sessionId: toWireId(id),
              requestHost,
              refusals,
              agents: offers,
            }),
        );
        const now = Date.now();
        const launchWindow =
          (config.SESSION_LAUNCH_TIMEOUT_SECONDS + config.SESSION_KEEPALIVE_SECONDS) * 1000;
        const row = await records.insert(tx, {
          id,
          userId,
          imageId: toUuid(launch.image_id),
          agentId: plan.agent.id,
          cores: plan.resources.cores,
          memory: BigInt(plan.resources.memory),
          plan: plan as unknown as object,
          tokenHash: hashSecret(token),
          containerSecret: randomBytes(18).toString('hex'),
          leaseOwner: ports.owner,
          leaseUntil: new Date(now + config.SESSION_LEASE_SECONDS * 1000),
          expiresAt: new Date(now + launchWindow),
          hardExpiresAt: new Date(now + config.SESSION_TIME_LIMIT_SECONDS * 1000),
          shareId: launch.share_id,
        });
        // Its owners as the plan found them in this transaction, the agent's engine as locked.
        return withOwners(row, plan, kasmAgent(agent, plan.agent.zone.name));
      },
      after: (_tx, row) => toKasmResponse(row),
    });
  }
}
export type LaunchSession = ReturnType<typeof createLaunchSession>;

/** What a launch needs to hold the user's slot. */
export interface LaunchSlot {
  users: Pick<LaunchUsers, 'lockForLaunch'>;
  allowances: LaunchAllowances;
  records: Pick<LaunchRecords, 'countLive'>;
}

/** Locks the user for the launch in `tx` and refuses one past their session limit. */
export async function holdLaunchSlot(slot: LaunchSlot, tx: Tx, wireUserId: string) {
  const userId = toUuid(wireUserId);
  if (!(await slot.users.lockForLaunch(tx, userId))) {
    throw new UserNotFoundError(`user_id ${wireUserId}`);
  }
  const limit = (await slot.allowances.sessionLimit(tx, userId)) ?? DEFAULT_SESSION_LIMIT;
  const live = await slot.records.countLive(userId, tx);
  if (live >= limit) {
    throw new SessionLimitReachedError(
      `The user has ${live} live sessions and may hold ${limit}; destroy one first`,
    );
  }
}

/** A session row with its owners as the plan names them (user, workspace, agent). */
export function withOwners(
  row: Omit<KasmWithOwners, 'user' | 'image' | 'agent'>,
  plan: LaunchPlan,
  agent: KasmWithOwners['agent'],
): KasmWithOwners {
  const { image } = plan;
  return {
    ...row,
    user: { username: plan.user.username },
    image: { id: image.id, name: image.name, friendlyName: image.friendlyName },
    agent,
  };
}

/** A place whose turn failed (waited too long) is given up before the error goes on. */
const leaving = (place: { leave(): void }) => (error: unknown) => {
  place.leave();
  throw error;
};

/** A staged container was started without the request's environment: such a request launches. */
const stageable = (launch: Launch) =>
  !launch.share_id &&
  Object.keys(launch.environment ?? {}).length === 0 && !launch.kasm_url;

/** A session URL with its connect token, as kasm_url carries it. */
export const withToken = (url: string, token: string) =>
  `${url}?kasm_token=${encodeURIComponent(token)}`;

function answer(row: KasmWithOwners, launch: Launch, token: string): LaunchAnswer {
  const plan = row.plan as unknown as LaunchPlan;
  return {
    kasm_id: toWireId(row.id),
    status: row.status,
    user_id: toWireId(toUuid(launch.user_id)),
    username: row.user.username,
    session_token: token,
    kasm_url: withToken(plan.sessionUrl, token),
    share_id: row.shareId ?? null,
  };
}
