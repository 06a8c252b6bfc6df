import { hashSecret, randomSecret } from '@platform/secrets';
import type { KeyGrant } from '../api-keys';
import type { AuditTrail } from '../audit';
import { breakGlassUsers, type Config } from '../config';
import { recordedUpdate, type AuditRecorder, type Tx } from '../db';
import { comparePassword, hashPassword, normalizeUsername } from '../domain';
import {
  LoginFailedError,
  LoginLinkInvalidError,
  SsoRequiredError,
  UserDisabledError,
  UserLockedError,
} from '../errors';
import type { LoginsRepository } from './logins.repository';
import type { TargetUser } from '../api';
import type { UserRevoked, UserRow, UsersService } from '../users';

/** Addresses remembered per user: enough for home, work and a phone's networks. */
const FAMILIAR_ADDRESSES = 20;

/** Where a login attempt comes from: its client key (clientKey), and whether the user signed in there before. */
export interface LoginOrigin {
  address: string;
  familiar: boolean;
  /** Aborted when the client has gone: its password check, if still waiting, is dropped. */
  signal?: AbortSignal;
  /** For the audit trail of a refusal: where the attempt came in, and from whom. */
  channel?: 'web' | 'api';
  clientIp?: string;
  userAgent?: string | null;
}

export interface Login {
  token: string;
  user: UserRow;
}

/** Who a browser's login session belongs to. */
export interface SignedIn {
  userId: string;
  username: string;
}

/** What sign-ins need of the users feature. */
export type LoginUsers = Pick<
  UsersService,
  | 'find'
  | 'actedOn'
  | 'account'
  | 'credentialsOf'
  | 'recordFailedLogin'
  | 'recordSignIn'
  | 'snapshot'
>;

export function createLoginsService({
  logins,
  users,
  config,
  onRevoked,
  audit,
}: {
  logins: LoginsRepository;
  users: LoginUsers;
  config: Config;
  /** Told of logout_user: the user's sessions are entered by no grant or link of before. */
  onRevoked: UserRevoked;
  /** Where a password sign-in refused by SSO_REQUIRED is recorded. */
  audit: Pick<AuditTrail, 'recordRefusal'>;
}) {
  const breakGlass = breakGlassUsers(config);

  /** SSO_REQUIRED: a password signs in only a break-glass user; any other attempt is refused and recorded. */
  async function refuseUnlessBreakGlass(username: string, from: LoginOrigin): Promise<void> {
    if (!config.SSO_REQUIRED || breakGlass.has(username)) return;
    const refusal = new SsoRequiredError();
    await audit.recordRefusal(
      {
        actor: { kind: 'system', name: 'password-sign-in' },
        channel: from.channel ?? 'web',
        clientIp: from.clientIp ?? null,
        userAgent: from.userAgent ?? null,
      },
      {
        operation: 'sign_in',
        target: { type: 'user', id: username },
        before: null,
        after: { username, reason: 'password sign-in is turned off (SSO_REQUIRED)' },
      },
      { result: 'denied', status: refusal.statusCode, errorCode: 'SSO_REQUIRED' },
    );
    throw refusal;
  }

  // Compared against for unknown users so that "no such user" and "wrong password" take as long.
  let decoy: Promise<string> | null = null;
  const decoyHash = () => (decoy ??= hashPassword(randomSecret(), config.BCRYPT_COST));

  /** The user as the audit trail keeps them, read in the change's transaction. */
  const userSnapshot = (userId: string) => (tx: Tx) => users.snapshot(userId, tx);

  /** A new login session for a user already checked; `address` becomes familiar. */
  async function startSession(userId: string, address: string): Promise<Login> {
    const token = randomSecret(32);
    const expiresAt = new Date(Date.now() + config.SESSION_TTL_HOURS * 3_600_000);
    await Promise.all([
      logins.createSession(userId, hashSecret(token), expiresAt),
      logins.rememberAddress(userId, address, FAMILIAR_ADDRESSES),
    ]);
    return { token, user: await users.recordSignIn(userId) };
  }

  return {
    /** Whether the user of that name has signed in from `address` (false for unknown names). */
    async isFamiliar(username: string, address: string): Promise<boolean> {
      const user = await users.account({ username });
      return user !== null && logins.isFamiliar(user.id, address);
    },

    /**
     * Only wrong passwords from an address the user signed in from count toward the account
     * lock: a stranger elsewhere cannot lock the user out (the caller throttles those instead).
     */
    async authenticate(usernameInput: string, password: string, from: LoginOrigin): Promise<Login> {
      const user = await users.credentialsOf(normalizeUsername(usernameInput));
      // One bcrypt thread serves everyone: a bounded share of its queue per address and in all.
      const matches = await comparePassword(password, user?.passwordHash ?? (await decoyHash()), {
        key: from.address,
        perKey: config.PASSWORD_CHECKS_PER_ADDRESS,
        maxWaiting: config.PASSWORD_CHECKS_WAITING,
        signal: from.signal,
      });
      // After the comparison, whatever it found: a refusal tells nothing of the password.
      await refuseUnlessBreakGlass(normalizeUsername(usernameInput), from);
      if (!user || !user.passwordHash) throw new LoginFailedError();
      if (user.disabled) throw new UserDisabledError();
      if (user.locked) throw new UserLockedError();
      if (!matches) {
        // The Nth consecutive failure from the user's own addresses locks the account.
        if (from.familiar) await users.recordFailedLogin(user.id);
        throw new LoginFailedError();
      }
      return startSession(user.id, from.address);
    },

    /**
     * A login session for a user an identity provider vouched for (sso/): refused, as a
     * password sign-in is, when the account is locked or disabled.
     */
    async startVouchedSession(userId: string, address: string): Promise<Login> {
      const user = await users.account({ id: userId });
      if (!user) throw new LoginFailedError();
      if (user.disabled) throw new UserDisabledError();
      if (user.locked) throw new UserLockedError();
      return startSession(user.id, address);
    },

    /** The user of a live login session, or null (unknown, expired, user locked or disabled). */
    async sessionUser(token: string): Promise<SignedIn | null> {
      const session = await logins.sessionByToken(hashSecret(token));
      if (!session || session.expiresAt <= new Date()) return null;
      const user = await users.account({ id: session.userId });
      if (!user || user.locked || user.disabled) return null;
      return { userId: user.id, username: user.username };
    },

    /** Ends one login session (signing out); unknown tokens are ignored. */
    async endSession(token: string): Promise<void> {
      await logins.endSession(hashSecret(token));
    },

    /**
     * get_login: a one-time sign-in token for the user, valid for LOGIN_LINK_TTL_SECONDS. The
     * link gives the user's powers: `grantor` must hold all of them.
     */
    async createLink(
      target: TargetUser,
      grantor?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<string> {
      const { id } = await users.actedOn(target, grantor);
      const token = randomSecret(32);
      const now = Date.now();
      const expiresAt = new Date(now + config.LOGIN_LINK_TTL_SECONDS * 1000);
      await recordedUpdate(logins.transaction, audit, userSnapshot(id), (tx) =>
        logins.replaceLinks(id, hashSecret(token), new Date(now), expiresAt, tx),
      );
      return token;
    },

    /**
     * Spends a sign-in link and starts a login session. One statement claims the link, so two
     * concurrent uses cannot both win. A password set after the link was made revokes it.
     */
    async redeemLink(token: string, address: string): Promise<Login> {
      const link = await logins.claimLink(hashSecret(token), new Date());
      const user = link && (await users.account({ id: link.userId }));
      if (!link || !user) throw new LoginLinkInvalidError();
      if (user.passwordSetDate && user.passwordSetDate > link.createdAt)
        throw new LoginLinkInvalidError();
      if (user.disabled) throw new UserDisabledError();
      if (user.locked) throw new UserLockedError();
      return startSession(user.id, address);
    },

    /**
     * logout_user for a user their identity provider signed out (OIDC back-channel logout):
     * every login session, unused sign-in link and way into their sessions ends.
     */
    async revokeUser(userId: string): Promise<void> {
      await logins.endAllOf(userId);
      await onRevoked(userId);
    },

    /**
     * Ends every login session of the user, revokes their unused sign-in links, and ends their
     * way into their sessions (grants, connect links, WebSockets).
     */
    async logoutUser(
      target: TargetUser,
      grantor?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<void> {
      const { id } = await users.actedOn(target, grantor);
      await recordedUpdate(logins.transaction, audit, userSnapshot(id), (tx) =>
        logins.endAllOf(id, tx),
      );
      await onRevoked(id);
    },
  };
}
export type LoginsService = ReturnType<typeof createLoginsService>;
