import type { LaunchWait } from '../generated/prisma/client';
import type { Database, Tx } from '../db';

/** A launch waiting its turn (or whose turn failed), as stored. */
export type LaunchWaitRow = LaunchWait;

export type NewLaunchWait = Pick<
  LaunchWait,
  'id' | 'userId' | 'imageId' | 'owner' | 'turn' | 'expiresAt'
>;

/**
 * Every query of launches waiting their turn (`launch_wait`): one row per launch that request_kasm
 * answered before its turn came, until the session row with its id replaces it.
 */
export function createLaunchWaitsRepository(database: Database) {
  const { prisma: db } = database;
  return {
    record: (wait: NewLaunchWait): Promise<LaunchWaitRow> =>
      db.launchWait.create({ data: { ...wait, status: 'queued' } }),

    find: (id: string): Promise<LaunchWaitRow | null> =>
      db.launchWait.findUnique({ where: { id } }),

    /** Launches still waiting before `wait` in the same process's queue. */
    ahead: (wait: Pick<LaunchWaitRow, 'owner' | 'turn'>): Promise<number> =>
      db.launchWait.count({
        where: { owner: wait.owner, turn: { lt: wait.turn }, status: 'queued' },
      }),

    /**
     * Ends the wait in the transaction that places its session: false when it is no longer
     * queued (cancelled with destroy_kasm, or failed), and then nothing may be placed.
     */
    take: async (tx: Tx, id: string): Promise<boolean> =>
      (await tx.launchWait.deleteMany({ where: { id, status: 'queued' } })).count === 1,

    /** Its turn failed: get_kasm_status answers the message until `keepUntil`. */
    fail: async (id: string, message: string, keepUntil: Date): Promise<void> => {
      await db.launchWait.updateMany({
        where: { id, status: 'queued' },
        data: { status: 'error', statusMessage: message.slice(0, 2000), expiresAt: keepUntil },
      });
    },

    /** Cancels a queued launch (destroy_kasm before its turn); false when none waits with the id. */
    cancel: async (id: string, userId?: string): Promise<boolean> =>
      (await db.launchWait.deleteMany({ where: { id, ...(userId ? { userId } : {}) } })).count ===
      1,

    /**
     * Fails the waits whose process stopped (queued past their time), then removes failures
     * shown until their time.
     */
    sweep: async (keepUntil: Date, now = new Date()): Promise<number> => {
      const abandoned = await db.launchWait.updateMany({
        where: { status: 'queued', expiresAt: { lt: now } },
        data: {
          status: 'error',
          statusMessage: 'The replica that queued the launch stopped before its turn; launch again',
          expiresAt: keepUntil,
        },
      });
      const removed = await db.launchWait.deleteMany({
        where: { status: 'error', expiresAt: { lt: now } },
      });
      return abandoned.count + removed.count;
    },
  };
}
export type LaunchWaitsRepository = ReturnType<typeof createLaunchWaitsRepository>;
