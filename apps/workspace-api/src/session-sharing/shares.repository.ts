import type { SessionShare } from '../generated/prisma/client';
import type { Database, Tx } from '../db';

export type ShareRow = SessionShare;

export type NewShare = Pick<
  SessionShare,
  | 'kasmId'
  | 'role'
  | 'tokenHash'
  | 'allowedUserIds'
  | 'allowedGroupIds'
  | 'joinerId'
  | 'maxUses'
  | 'expiresAt'
  | 'createdBy'
>;

/** Every query of share links (`session_share`). */
export function createSharesRepository(database: Database) {
  const { prisma: db } = database;
  return {
    transaction: database.transaction,

    insert: (share: NewShare, tx?: Tx) => (tx ?? db).sessionShare.create({ data: share }),

    findByToken: (kasmId: string, tokenHash: string) =>
      db.sessionShare.findFirst({ where: { kasmId, tokenHash } }),

    find: (kasmId: string, id: string) => db.sessionShare.findFirst({ where: { kasmId, id } }),

    /** The session's links that may still admit someone, newest first (join_kasm's are not listed). */
    listOpen: (kasmId: string) =>
      db.sessionShare.findMany({
        where: { kasmId, revokedAt: null, joinerId: null, expiresAt: { gt: new Date() } },
        orderBy: { createdAt: 'desc' },
      }),

    /**
     * Counts one use of the link in `tx`, if it still admits: not revoked, not expired, not used
     * up. The conditional update lets exactly one of two racing last uses win.
     */
    async spendUse(tx: Tx, id: string): Promise<boolean> {
      const { count } = await tx.sessionShare.updateMany({
        where: {
          id,
          revokedAt: null,
          expiresAt: { gt: new Date() },
          OR: [{ maxUses: null }, { uses: { lt: db.sessionShare.fields.maxUses } }],
        },
        data: { uses: { increment: 1 } },
      });
      return count === 1;
    },

    /** Revokes the link; false when it was revoked already or is another session's. */
    async revoke(tx: Tx, kasmId: string, id: string): Promise<boolean> {
      const { count } = await tx.sessionShare.updateMany({
        where: { id, kasmId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      return count === 1;
    },
  };
}
export type SharesRepository = ReturnType<typeof createSharesRepository>;
