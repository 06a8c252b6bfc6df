import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { toUuid, toWireId } from '@platform/schemas';
import type { Config } from '../config';
import type { QueuePlace } from './launch-queue';
import type { LaunchWaitsRepository } from './launch-waits.repository';

/** How long get_kasm_status answers a queued launch's failure before the kasm_id is forgotten. */
export const WAIT_FAILURE_KEPT_MS = 10 * 60_000;

/** request_kasm's answer while the launch waits its turn: no link until it is placed. */
export interface QueuedAnswer {
  kasm_id: string;
  status: 'queued';
  user_id: string;
  username: string;
  session_token: string;
  kasm_url: string;
  share_id: string | null;
}

export interface QueuedLaunchPorts {
  config: Pick<Config, 'LAUNCH_QUEUE_WAIT_SECONDS' | 'SESSION_LEASE_SECONDS'>;
  waits: Pick<LaunchWaitsRepository, 'record' | 'fail'>;
  /** The user's name for the answer. */
  usernameOf(userId: string): Promise<string>;
  /** Names this process: the queue a wait's number counts in. */
  owner: string;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/** Our errors carry a code and a status; anything else is not for the client to read. */
function isOurs(error: unknown): error is { code: string; statusCode: number; message: string } {
  const known = error as { code?: unknown; statusCode?: unknown };
  return typeof known.code === 'string' && typeof known.statusCode === 'number';
}

/**
 * A launch whose turn did not come within LAUNCH_QUEUE_ANSWER_MS: its wait is recorded (so
 * get_kasm_status on any replica answers its place), request_kasm answers its kasm_id now, and
 * the launch goes on when its turn comes. `place` then places the session under that id in the
 * transaction that ends the wait; a failure is recorded on the wait for get_kasm_status.
 */
export function createQueuedLaunches(ports: QueuedLaunchPorts) {
  const { config, waits, log } = ports;

  async function goOn(place: QueuePlace, id: string, go: (kasmId: string) => Promise<void>) {
    try {
      await place.turn;
      await go(id);
    } catch (error) {
      if (!isOurs(error)) log.error({ err: error, kasmId: id }, 'queued launch failed');
      const message = isOurs(error)
        ? `${error.code}: ${error.message}`
        : 'The launch failed; the service log has why';
      await waits
        .fail(id, message, new Date(Date.now() + WAIT_FAILURE_KEPT_MS))
        .catch((err: unknown) =>
          log.warn({ err, kasmId: id }, 'queued launch failure not recorded'),
        );
    } finally {
      place.leave();
    }
  }

  return async function answerQueued(
    place: QueuePlace,
    launch: { user_id: string; image_id: string; share_id?: string | null },
    token: string,
    go: (kasmId: string) => Promise<void>,
  ): Promise<QueuedAnswer> {
    const id = randomUUID();
    const waitMs = (config.LAUNCH_QUEUE_WAIT_SECONDS + config.SESSION_LEASE_SECONDS) * 1000;
    let username: string;
    try {
      username = await ports.usernameOf(launch.user_id);
      await waits.record({
        id,
        userId: toUuid(launch.user_id),
        imageId: toUuid(launch.image_id),
        owner: ports.owner,
        turn: BigInt(place.number),
        expiresAt: new Date(Date.now() + waitMs),
      });
    } catch (error) {
      place.leave();
      throw error;
    }
    void goOn(place, id, go);
    return {
      kasm_id: toWireId(id),
      status: 'queued',
      user_id: toWireId(launch.user_id),
      username,
      session_token: token,
      kasm_url: '',
      share_id: launch.share_id ?? null,
    };
  };
}
export type AnswerQueued = ReturnType<typeof createQueuedLaunches>;
