import { isUniqueViolation, ValidationFailedError, withFieldErrors } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { Config } from '../config';
import type { Db } from '../db';
import { UserHasSessionsError, UserNotFoundError, UsernameTakenError } from '../errors';
import { ALL_USERS_GROUP_ID } from '../groups/system-groups';
import type { Prisma } from '../generated/prisma/client';
import { hashNewPassword } from './passwords';
import { USER_WITH_GROUPS, type UserView, type UserWithGroups } from './user-response';
import { listUsers } from './users-query';
import { createUsersRepository, isRawUniqueViolation } from './users.repository';
import type { CreateUserBody, GetUsersBody, UpdateUserBody } from './users.schemas';

type UserFields = Omit<CreateUserBody['target_user'], 'username'>;

export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

function profileData(fields: UserFields) {
  return {
    firstName: fields.first_name,
    lastName: fields.last_name,
    phone: fields.phone,
    organization: fields.organization,
    notes: fields.notes,
    locked: fields.locked,
    disabled: fields.disabled,
  } satisfies Prisma.UserUpdateInput;
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

export function createUsersService({
  db,
  config,
  sessions,
}: {
  db: Db;
  config: Config;
  sessions: UserSessions;
}) {
  const rethrowTaken = (username: string) => (error: unknown) => {
    throw isUniqueViolation(error) || isRawUniqueViolation(error)
      ? new UsernameTakenError(username)
      : error;
  };

  const rows = createUsersRepository(db, config.DATABASE_SCHEMA);

  async function findById(userId: string): Promise<UserView> {
    const user = await rows.findById(toUuid(userId));
    if (!user) throw new UserNotFoundError(`user_id ${userId}`);
    return user;
  }

  return {
    findById,

    list: (query: GetUsersBody) => listUsers(db, config.DATABASE_SCHEMA, query),

    async findByIdOrUsername(target: { user_id?: string; username?: string }): Promise<UserView> {
      if (target.user_id) return findById(target.user_id);
      if (target.username === undefined) {
        throw withFieldErrors(new ValidationFailedError('The request is invalid'), [
          { field: 'target_user', message: 'must have user_id or username' },
        ]);
      }
      const username = normalizeUsername(target.username);
      const user = await rows.findByUsername(username);
      if (!user) throw new UserNotFoundError(`username ${username}`);
      return user;
    },

    /** New users join All Users in the same transaction. */
    async create(input: CreateUserBody['target_user']): Promise<UserWithGroups> {
      const username = checkUsername(input.username);
      const passwordHash =
        input.password === undefined
          ? null
          : await hashNewPassword(input.password, config.BCRYPT_COST);
      return db.user
        .create({
          data: {
            ...profileData(input),
            username,
            passwordHash,
            passwordSetDate: passwordHash ? new Date() : null,
            groups: { create: { groupId: ALL_USERS_GROUP_ID } },
          },
          include: USER_WITH_GROUPS,
        })
        .catch(rethrowTaken(username));
    },

    /** Only the fields present change, in one statement. A new password also ends every login session. */
    async update(input: UpdateUserBody['target_user']): Promise<UserView> {
      const username = input.username === undefined ? undefined : checkUsername(input.username);
      const passwordHash =
        input.password === undefined
          ? undefined
          : await hashNewPassword(input.password, config.BCRYPT_COST);
      const user = await rows
        .update(toUuid(input.user_id), { ...profileData(input), username, passwordHash })
        .catch(rethrowTaken(username ?? ''));
      if (!user) throw new UserNotFoundError(`user_id ${input.user_id}`);
      return user;
    },

    /** Refuses while the user has live sessions unless forced, which destroys them first. */
    async remove(userId: string, force: boolean): Promise<void> {
      const id = toUuid(userId);
      const user = await db.user.findUnique({ where: { id }, select: { id: true } });
      if (!user) throw new UserNotFoundError(`user_id ${userId}`);
      if ((await sessions.countLive(userId)) > 0) {
        if (!force) throw new UserHasSessionsError();
        await sessions.destroyAllOf(userId);
      }
      // Memberships, login sessions and session history go with the row (foreign keys cascade).
      const { count } = await db.user.deleteMany({ where: { id } });
      if (count === 0) throw new UserNotFoundError(`user_id ${userId}`);
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
