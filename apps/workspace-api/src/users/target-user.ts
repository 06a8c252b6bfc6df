import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import { normalizeUsername } from '../domain';
import { UserNotFoundError } from '../errors';
import type { UserRow } from './user-row';
import type { UsersRepository } from './users.repository';
import type { TargetUser } from '../api';

/**
 * The one resolver of `target_user`, for every operation that takes one: by user_id, else by
 * username (trimmed, case-insensitive), as get_user does.
 */
export function createTargetUserResolver(
  users: Pick<UsersRepository, 'findById' | 'findByUsername'>,
) {
  async function find(target: TargetUser): Promise<UserRow> {
    if (target.user_id !== undefined) {
      const user = await users.findById(toUuid(target.user_id));
      if (!user) throw new UserNotFoundError(`user_id ${target.user_id}`);
      return user;
    }
    if (target.username === undefined) {
      throw withFieldErrors(new ValidationFailedError('The request is invalid'), [
        { field: 'target_user', message: 'must have user_id or username' },
      ]);
    }
    const username = normalizeUsername(target.username);
    const user = await users.findByUsername(username);
    if (!user) throw new UserNotFoundError(`username ${username}`);
    return user;
  }

  return {
    find,
    /** The id `target` names. A user_id is taken as given: the caller's own query checks it. */
    idOf: async (target: TargetUser): Promise<string> =>
      target.user_id !== undefined ? toUuid(target.user_id) : (await find(target)).id,
  };
}
export type TargetUserResolver = ReturnType<typeof createTargetUserResolver>;
