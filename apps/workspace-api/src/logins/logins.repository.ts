import type { Database } from '../db';

/** Every query of login sessions (`session`) and one-time sign-in links (`login_link`). */
export function createLoginsRepository({ prisma }: Database) {
  return {
    async createSession(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
      await prisma.session.create({ data: { userId, tokenHash, expiresAt } });
    },

    sessionByToken: (tokenHash: string) =>
      prisma.session.findUnique({
        where: { tokenHash },
        select: {
          expiresAt: true,
          user: { select: { id: true, username: true, locked: true, disabled: true } },
        },
      }),

    async endSession(tokenHash: string): Promise<void> {
      await prisma.session.deleteMany({ where: { tokenHash } });
    },

    /** A new link for the user; the user's spent and expired links go, no use to anyone. */
    async replaceLinks(userId: string, tokenHash: string, now: Date, expiresAt: Date) {
      await prisma.$transaction([
        prisma.loginLink.deleteMany({
          where: { userId, OR: [{ usedAt: { not: null } }, { expiresAt: { lt: now } }] },
        }),
        prisma.loginLink.create({ data: { userId, tokenHash, expiresAt } }),
      ]);
    },

    /** Spends a live link in one statement, so that two concurrent uses cannot both win. */
    async claimLink(tokenHash: string, now: Date) {
      const claimed = await prisma.loginLink.updateManyAndReturn({
        where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
        select: {
          createdAt: true,
          user: { select: { id: true, locked: true, disabled: true, passwordSetDate: true } },
        },
      });
      return claimed[0] ?? null;
    },

    /** Every login session and sign-in link of the user. */
    async endAllOf(userId: string): Promise<void> {
      await prisma.$transaction([
        prisma.session.deleteMany({ where: { userId } }),
        prisma.loginLink.deleteMany({ where: { userId } }),
      ]);
    },
  };
}
export type LoginsRepository = ReturnType<typeof createLoginsRepository>;
