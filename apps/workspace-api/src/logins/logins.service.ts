import { hashSecret, randomSecret } from '@platform/secrets';
import { toUuid } from '@platform/schemas';
import type { Config } from '../config';
import type { Db } from '../db';
import {
  LoginFailedError,
  LoginLinkInvalidError,
  UserDisabledError,
  UserLockedError,
  UserNotFoundError,
} from '../errors';
import { USER_WITH_GROUPS, type UserWithGroups } from '../users/user-response';
import { normalizeUsername } from '../users/users.service';
import { comparePassword, hashPassword } from '../users/password-hashing';

export interface Login {
  token: string;
  user: UserWithGroups;
}

/** Who a browser's login session belongs to. */
export interface SignedIn {
  userId: string;
  username: string;
}

export function createLoginsService({ db, config }: { db: Db; config: Config }) {
  // Compared against for unknown users so that "no such user" and "wrong password" take as long.
  let decoy: Promise<string> | null = null;
  const decoyHash = () => (decoy ??= hashPassword(randomSecret(), config.BCRYPT_COST));

  /** Counts a failure; the Nth consecutive one locks the account. */
  async function recordFailure(userId: string): Promise<void> {
    const { failedLoginCount } = await db.user.update({
      where: { id: userId },
      data: { failedLoginCount: { increment: 1 } },
      select: { failedLoginCount: true },
    });
    if (failedLoginCount >= config.MAX_FAILED_LOGINS) {
      await db.user.update({ where: { id: userId }, data: { locked: true } });
    }
  }

  /** A new login session for a user already checked. */
  async function startSession(userId: string): Promise<Login> {
    const token = randomSecret(32);
    const now = new Date();
    const [, loggedIn] = await db.$transaction([
      db.session.create({
        data: {
          userId,
          tokenHash: hashSecret(token),
          expiresAt: new Date(now.getTime() + config.SESSION_TTL_HOURS * 3_600_000),
        },
      }),
      db.user.update({
        where: { id: userId },
        data: { failedLoginCount: 0, lastSession: now },
        include: USER_WITH_GROUPS,
      }),
    ]);
    return { token, user: loggedIn };
  }

  return {
    async authenticate(usernameInput: string, password: string): Promise<Login> {
      const user = await db.user.findUnique({
        where: { username: normalizeUsername(usernameInput) },
        include: USER_WITH_GROUPS,
      });
      const matches = await comparePassword(password, user?.passwordHash ?? (await decoyHash()));
      if (!user || !user.passwordHash) throw new LoginFailedError();
      if (user.disabled) throw new UserDisabledError();
      if (user.locked) throw new UserLockedError();
      if (!matches) {
        await recordFailure(user.id);
        throw new LoginFailedError();
      }
      return startSession(user.id);
    },

    /** The user of a live login session, or null (unknown, expired, user locked or disabled). */
    async sessionUser(token: string): Promise<SignedIn | null> {
      const session = await db.session.findUnique({
        where: { tokenHash: hashSecret(token) },
        select: {
          expiresAt: true,
          user: { select: { id: true, username: true, locked: true, disabled: true } },
        },
      });
      if (!session || session.expiresAt <= new Date()) return null;
      const { user } = session;
      if (user.locked || user.disabled) return null;
      return { userId: user.id, username: user.username };
    },

    /** Ends one login session (signing out); unknown tokens are ignored. */
    async endSession(token: string): Promise<void> {
      await db.session.deleteMany({ where: { tokenHash: hashSecret(token) } });
    },

    /** get_login: a one-time sign-in token for the user, valid for LOGIN_LINK_TTL_SECONDS. */
    async createLink(userIdInput: string): Promise<string> {
      const userId = toUuid(userIdInput);
      const user = await db.user.findUnique({ where: { id: userId }, select: { id: true } });
      if (!user) throw new UserNotFoundError(`user_id ${userIdInput}`);
      const token = randomSecret(32);
      const now = Date.now();
      await db.$transaction([
        // Spent and expired links of the user are no use to anyone.
        db.loginLink.deleteMany({
          where: { userId, OR: [{ usedAt: { not: null } }, { expiresAt: { lt: new Date(now) } }] },
        }),
        db.loginLink.create({
          data: {
            userId,
            tokenHash: hashSecret(token),
            expiresAt: new Date(now + config.LOGIN_LINK_TTL_SECONDS * 1000),
          },
        }),
      ]);
      return token;
    },

    /**
     * Spends a sign-in link and starts a login session. One statement claims the link, so two
     * concurrent uses cannot both win. A password set after the link was made revokes it.
     */
    async redeemLink(token: string): Promise<Login> {
      const now = new Date();
      const claimed = await db.loginLink.updateManyAndReturn({
        where: { tokenHash: hashSecret(token), usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
        select: {
          createdAt: true,
          user: { select: { id: true, locked: true, disabled: true, passwordSetDate: true } },
        },
      });
      const link = claimed[0];
      if (!link) throw new LoginLinkInvalidError();
      const { user } = link;
      if (user.passwordSetDate && user.passwordSetDate > link.createdAt)
        throw new LoginLinkInvalidError();
      if (user.disabled) throw new UserDisabledError();
      if (user.locked) throw new UserLockedError();
      return startSession(user.id);
    },

    /** Ends every login session of the user and revokes their unused sign-in links. */
    async logoutUser(userId: string): Promise<void> {
      const id = toUuid(userId);
      const [user] = await db.$transaction([
        db.user.findUnique({ where: { id }, select: { id: true } }),
        db.session.deleteMany({ where: { userId: id } }),
        db.loginLink.deleteMany({ where: { userId: id } }),
      ]);
      if (!user) throw new UserNotFoundError(`user_id ${userId}`);
    },
  };
}
export type LoginsService = ReturnType<typeof createLoginsService>;
