import { toUuid } from '@platform/schemas';
import { assertHoldsAll, type KeyGrant } from '../api-keys';
import { UserDisabledError, UserLockedError, UserNotFoundError } from '../errors';

/** What the rule reads of the user a caller would act as (users and groups, by their ports). */
export interface ActingSources {
  findUser(
    id: string,
  ): Promise<{ id: string; username: string; locked: boolean; disabled: boolean } | null>;
  permissionsOf(userId: string): Promise<string[]>;
}

/**
 * Launching for a user, minting a link into their session or running a command in it acts as
 * that user: the caller must hold every permission the user's groups grant (the rule of
 * update_user and get_login), and a locked or disabled account gets no new session. Without a
 * grantor (the user on the page, the CLI) only the account's state is checked.
 */
export function createActingRule(sources: ActingSources) {
  return async function assertMayActAs(
    userId: string,
    grantor: KeyGrant | undefined,
    { launching = false } = {},
  ): Promise<void> {
    const user = await sources.findUser(toUuid(userId));
    if (!user) throw new UserNotFoundError(`user_id ${userId}`);
    if (launching && user.locked) throw new UserLockedError();
    if (launching && user.disabled) throw new UserDisabledError();
    if (grantor) {
      assertHoldsAll(
        grantor,
        await sources.permissionsOf(user.id),
        `The user "${user.username}" holds`,
      );
    }
  };
}

export type ActingRule = ReturnType<typeof createActingRule>;
