import { hashSecret, randomSecret } from '@platform/secrets';
import { toUuid } from '@platform/schemas';
import type { Config } from '../config';
import type { Db } from '../db';
import { LoginFailedError, UserDisabledError, UserLockedError, UserNotFoundError } from '../errors';
import { USER_WITH_GROUPS, type UserWithGroups } from '../users/user-response';
import { normalizeUsername } from '../users/users.service';
import { comparePassword, hashPassword } from '../users/password-hashing';

export interface Login {
  token: string;
  user: UserWithGroups;
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
      const token = randomSecret(32);
      const now = new Date();
      const [, loggedIn] = await db.$transaction([
        db.session.create({
          data: {
            userId: user.id,
            tokenHash: hashSecret(token),
            expiresAt: new Date(now.getTime() + config.SESSION_TTL_HOURS * 3_600_000),
          },
        }),
        db.user.update({
          where: { id: user.id },
          data: { failedLoginCount: 0, lastSession: now },
          include: USER_WITH_GROUPS,
        }),
      ]);
      return { token, user: loggedIn };
    },

    /** Ends every login session of the user. */
    async logoutUser(userId: string): Promise<void> {
      const id = toUuid(userId);
      const [user] = await db.$transaction([
        db.user.findUnique({ where: { id }, select: { id: true } }),
        db.session.deleteMany({ where: { userId: id } }),
      ]);
      if (!user) throw new UserNotFoundError(`user_id ${userId}`);
    },
  };
}
export type LoginsService = ReturnType<typeof createLoginsService>;
