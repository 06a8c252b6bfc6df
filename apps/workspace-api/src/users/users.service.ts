import type { Static, TSchema } from '@sinclair/typebox';
import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import { assertHoldsAll, holdsAll, type KeyGrant } from '../api-keys';
import type { Config } from '../config';
import { isUniqueViolation, recordedChange, type AuditRecorder, type Tx } from '../db';
import type { TargetUser } from '../api';
import { ALL_USERS_GROUP_ID, normalizeUsername } from '../domain';
import { UserHasSessionsError, UserNotFoundError, UsernameTakenError } from '../errors';
import { hashNewPassword } from './passwords';
import { createTargetUserResolver } from './target-user';
import { DEFAULT_PAGE_SIZE, pageQuery } from './users-list.sql';
import { toUserResponse, type UserRow } from './user-row';
import type { UsersPage, UsersRepository } from './users.repository';
import { type CreateUserBody, type GetUsersBody, type UpdateUserBody } from './users.schemas';

type UserFields = Omit<CreateUserBody['target_user'], 'username'>;

/** get_users without paging fields streams every user, this many per query. */
export const ALL_USERS_BATCH = 1000;

function profile(fields: UserFields) {
  return {
    firstName: fields.first_name,
    lastName: fields.last_name,
    phone: fields.phone,
    organization: fields.organization,
    notes: fields.notes,
    locked: fields.locked,
    disabled: fields.disabled,
  };
}

function checkUsername(username: string): string {
  const normalized = normalizeUsername(username);
  if (normalized.length === 0) {
    throw withFieldErrors(new ValidationFailedError('The request is invalid'), [
      { field: 'target_user.username', message: 'must not be blank' },
    ]);
  }
  return normalized;
}

/** What deleting a user needs of the sessions feature. */
export interface UserSessions {
  countLive(userId: string): Promise<number>;
  destroyAllOf(userId: string): Promise<void>;
}

/**
 * What get_user needs of the sessions feature, which users/ never imports: a user's live
 * sessions as the sessions' operations answer them, and the schema of one. app.ts fills it.
 */
export interface UserSessionsListing<Kasm extends TSchema = TSchema> {
  schema: Kasm;
  liveOf(userId: string): Promise<Static<Kasm>[]>;
}

/**
 * What users need of the logins feature: a new password ends every login session; locking or
 * disabling also every unused sign-in link, so that neither comes back with the account.
 */
export interface UserLogins {
  endSessionsOf(userId: string, tx: Tx): Promise<void>;
  endAllOf(userId: string): Promise<void>;
}

/**
 * Told that a user's way into their sessions must end everywhere, at once: they were locked,
 * disabled, deleted, signed out by logout_user or given a new password. app.ts wires it to the
 * sessions feature (grants, connect links, open WebSockets).
 */
export type UserRevoked = (userId: string) => Promise<void>;

/** A change that ends the user's access: a lock, a disabling or a new password. */
const revokes = (input: UpdateUserBody['target_user']) =>
  input.locked === true || input.disabled === true || input.password !== undefined;

/** What users need of the groups feature: every new user joins All Users; members' count; what a user holds. */
export interface UserMemberships {
  addMember(userId: string, groupId: string, tx: Tx): Promise<void>;
  countMembers(groupId: string): Promise<number>;
  permissionsOf(userId: string): Promise<string[]>;
}

/** What an identity provider says of a user (sso/), each field as the users table holds it. */
export interface DirectoryFields {
  username: string;
  firstName: string;
  lastName: string;
  phone: string;
  organization: string;
}

export type UsersListing =
  | { paged: true; page: number; pageSize: number; result: UsersPage }
  | { paged: false; batches: AsyncGenerator<UserRow[]> };

export function createUsersService({
  users,
  config,
  sessions,
  logins,
  memberships,
  onRevoked,
}: {
  users: UsersRepository;
  config: Pick<Config, 'BCRYPT_COST' | 'MAX_FAILED_LOGINS'>;
  sessions: UserSessions;
  logins: UserLogins;
  memberships: UserMemberships;
  onRevoked: UserRevoked;
}) {
  const rethrowTaken = (username: string) => (error: unknown) => {
    throw isUniqueViolation(error) ? new UsernameTakenError(username) : error;
  };

  const { find, idOf } = createTargetUserResolver(users);

  /**
   * The user `target` names, for an operation acting on them (get_login, logout_user,
   * update_user, delete_user): refused unless `grantor` holds every permission the user's groups
   * grant, as memberships and keys are (no more than the caller holds).
   */
  async function actedOn(target: TargetUser, grantor: KeyGrant | undefined): Promise<UserRow> {
    const user = await find(target);
    if (grantor && !holdsAll(grantor)) {
      const held = await memberships.permissionsOf(user.id);
      assertHoldsAll(grantor, held, `The user "${user.username}" holds`);
    }
    return user;
  }

  /** The user as the audit trail keeps them (get_user's wire form), read in `tx`; null for none. */
  async function snapshot(userId: string, tx: Tx) {
    const user = await users.findById(userId, tx);
    return user && toUserResponse(user);
  }

  /** The id `input` names, refused as `actedOn` refuses; one read fewer when nothing can be. */
  const actedOnId = async (input: TargetUser, grantor: KeyGrant | undefined) =>
    grantor && !holdsAll(grantor) ? (await actedOn(input, grantor)).id : idOf(input);

  return {
    find,
    idOf,
    actedOn,

    snapshot,

    /** A group's members by username, and how many it has (the groups feature checks the group). */
    async inGroup(groupId: string, page: number, pageSize: number) {
      const [members, total] = await Promise.all([
        users.inGroup(groupId, page, pageSize),
        memberships.countMembers(groupId),
      ]);
      return { users: members, total };
    },

    /** For password sign-ins only: the hash never leaves the users and logins services. */
    credentialsOf: (username: string) => users.credentialsOf(normalizeUsername(username)),

    /** What a sign-in checks of the account with that id or username; null when none has it. */
    account: (where: { id: string } | { username: string }) =>
      users.account('id' in where ? where : { username: normalizeUsername(where.username) }),

    /** The MAX_FAILED_LOGINS-th consecutive failure locks the account. */
    recordFailedLogin: (userId: string) =>
      users.recordFailedLogin(userId, config.MAX_FAILED_LOGINS),

    /** A sign-in succeeded: failures forgotten, last_session now. */
    async recordSignIn(userId: string): Promise<UserRow> {
      const user = await users.recordSignIn(userId);
      if (!user) throw new UserNotFoundError(`user_id ${userId}`);
      return user;
    },

    /**
     * A page when any of page, page_size or cursor is given; otherwise every user that matches,
     * read in keyset batches so that the whole list is never held at once.
     */
    async list(query: GetUsersBody): Promise<UsersListing> {
      if (query.page === undefined && query.page_size === undefined && !query.cursor) {
        return { paged: false, batches: users.batches(query, ALL_USERS_BATCH) };
      }
      const paging = pageQuery({
        ...query,
        page: query.page ?? 0,
        page_size: query.page_size ?? DEFAULT_PAGE_SIZE,
      });
      const result = await users.page(paging);
      return { paged: true, page: paging.page, pageSize: paging.page_size, result };
    },

    /** With `audit`, the API's event is written in the user's transaction. */
    async create(
      input: CreateUserBody['target_user'],
      audit?: AuditRecorder | null,
    ): Promise<UserRow> {
      const username = checkUsername(input.username);
      const passwordHash =
        input.password === undefined
          ? null
          : await hashNewPassword(input.password, config.BCRYPT_COST);
      const fields = profile(input);
      const user = {
        username,
        passwordHash,
        firstName: fields.firstName ?? '',
        lastName: fields.lastName ?? '',
        phone: fields.phone ?? '',
        organization: fields.organization ?? '',
        notes: fields.notes ?? '',
        locked: fields.locked ?? false,
        disabled: fields.disabled ?? false,
      };
      return users
        .transaction(
          async (tx) => {
            const id = await users.create(user, tx);
            await memberships.addMember(id, ALL_USERS_GROUP_ID, tx);
            const created = (await users.findById(id, tx)) as UserRow;
            await audit?.recordIn(tx, { before: null, after: toUserResponse(created) });
            return created;
          },
          { audit },
        )
        .catch(rethrowTaken(username));
    },

    /**
     * A user made at their first sign-in through an identity provider, in the sign-in's
     * transaction: no password, the provider's kind as realm, a member of All Users.
     */
    async provision(fields: DirectoryFields, realm: string, tx: Tx): Promise<string> {
      const username = checkUsername(fields.username);
      const user = { ...fields, username, passwordHash: null, realm, notes: '' };
      const id = await users
        .create({ ...user, locked: false, disabled: false }, tx)
        .catch(rethrowTaken(username));
      await memberships.addMember(id, ALL_USERS_GROUP_ID, tx);
      return id;
    },

    /** The directory's fields of a user again, at each sign-in; in the sign-in's transaction. */
    async applyDirectoryFields(id: string, fields: Omit<DirectoryFields, 'username'>, tx: Tx) {
      await users.update(id, fields, tx);
    },

    /**
     * Only the fields present change, in one statement. By user_id a username renames; without
     * one, the username names the user. A new password also ends every login session, in the
     * same transaction. With a `grantor`, the rule of `actedOn` applies. With `audit`, the
     * statement that changes the user records the API's event.
     */
    async update(
      input: UpdateUserBody['target_user'],
      grantor?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<UserRow> {
      const byId = input.user_id !== undefined;
      const id = await actedOnId(input, grantor);
      const username =
        byId && input.username !== undefined ? checkUsername(input.username) : undefined;
      const passwordHash =
        input.password === undefined
          ? undefined
          : await hashNewPassword(input.password, config.BCRYPT_COST);
      const change = { ...profile(input), username, passwordHash };
      const user = await (
        passwordHash === undefined
          ? users.update(id, change, undefined, audit)
          : users.transaction(
              async (tx) => {
                const changed = await users.update(id, change, tx, audit);
                if (changed) await logins.endSessionsOf(id, tx);
                return changed;
              },
              { audit },
            )
      ).catch(rethrowTaken(username ?? ''));
      if (!user) throw new UserNotFoundError(`user_id ${input.user_id ?? id}`);
      if (input.locked === true || input.disabled === true) await logins.endAllOf(id);
      if (revokes(input)) await onRevoked(id);
      return user;
    },

    /**
     * Refuses while the user has live sessions unless forced, which destroys them first; with a
     * `grantor`, the rule of `actedOn` applies. With `audit`, the API's event is written in the
     * deletion's transaction.
     */
    async remove(
      target: TargetUser,
      force: boolean,
      grantor?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<void> {
      const { id } = await actedOn(target, grantor);
      if ((await sessions.countLive(id)) > 0) {
        if (!force) throw new UserHasSessionsError();
        await sessions.destroyAllOf(id);
      }
      // Before the row goes: its sessions (and so what this process holds of them) go with it.
      await onRevoked(id);
      await recordedChange(users.transaction, audit, {
        before: (tx) => snapshot(id, tx),
        change: async (tx) => {
          if (!(await users.remove(id, tx))) throw new UserNotFoundError(`user_id ${id}`);
        },
      });
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
