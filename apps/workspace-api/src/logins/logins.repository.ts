import type { AuditedTransaction, Database, Tx } from '../db';

/**
 * Every query of login sessions (`login_session`), one-time sign-in links (`login_link`) and the
 * addresses users signed in from (`login_address`). Whose they are is the users feature's to say.
 */
export function createLoginsRepository(database: Database) {
  const { prisma } = database;
  /** Runs `work` in `tx`, or in a transaction of its own. */
  const within = (tx: Tx | undefined, work: (tx: Tx) => Promise<unknown>) =>
    tx ? work(tx) : database.transaction(work);
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    async createSession(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
      await prisma.loginSession.create({ data: { userId, tokenHash, expiresAt } });
    },

    sessionByToken: (tokenHash: string): Promise<{ userId: string; expiresAt: Date } | null> =>
      prisma.loginSession.findUnique({
        where: { tokenHash },
        select: { userId: true, expiresAt: true },
      }),

    async endSession(tokenHash: string): Promise<void> {
      await prisma.loginSession.deleteMany({ where: { tokenHash } });
    },

    /** Every login session of the user, inside `tx` (a new password's). */
    async endSessionsOf(userId: string, tx: Tx): Promise<void> {
      await tx.loginSession.deleteMany({ where: { userId } });
    },

    /** A new link for the user; the user's spent and expired links go, no use to anyone. */
    async replaceLinks(userId: string, tokenHash: string, now: Date, expiresAt: Date, tx?: Tx) {
      await within(tx, async (t) => {
        await t.loginLink.deleteMany({
          where: { userId, OR: [{ usedAt: { not: null } }, { expiresAt: { lt: now } }] },
        });
        await t.loginLink.create({ data: { userId, tokenHash, expiresAt } });
      });
    },

    /** Spends a live link in one statement, so that two concurrent uses cannot both win. */
    async claimLink(
      tokenHash: string,
      now: Date,
    ): Promise<{ userId: string; createdAt: Date } | null> {
      const claimed = await prisma.loginLink.updateManyAndReturn({
        where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
        select: { userId: true, createdAt: true },
      });
      return claimed[0] ?? null;
    },

    /** Whether the user has signed in from `address`. */
    async isFamiliar(userId: string, address: string): Promise<boolean> {
      return (await prisma.loginAddress.count({ where: { userId, address } })) > 0;
    },

    /** Records a sign-in from `address`; the user keeps only the `keep` most recent addresses. */
    async rememberAddress(userId: string, address: string, keep: number): Promise<void> {
      await prisma.loginAddress.upsert({
        where: { userId_address: { userId, address } },
        create: { userId, address },
        update: { updatedAt: new Date() },
      });
      const stale = await prisma.loginAddress.findMany({
        where: { userId },
        orderBy: { updatedAt: 'desc' },
        skip: keep,
        select: { address: true },
      });
      if (stale.length === 0) return;
      await prisma.loginAddress.deleteMany({
        where: { userId, address: { in: stale.map((a) => a.address) } },
      });
    },

    /** Every login session and sign-in link of the user. */
    async endAllOf(userId: string, tx?: Tx): Promise<void> {
      await within(tx, async (t) => {
        await t.loginSession.deleteMany({ where: { userId } });
        await t.loginLink.deleteMany({ where: { userId } });
      });
    },
  };
}
export type LoginsRepository = ReturnType<typeof createLoginsRepository>;
