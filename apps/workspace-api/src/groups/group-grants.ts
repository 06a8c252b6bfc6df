import { assertHoldsAll, type KeyGrant, permissionsLacking } from '../api-keys';
import { ForbiddenError } from '../errors';

/**
 * Refuses a change of a group's permissions (from `before` to `after`) by a grantor lacking any
 * permission granted or taken away, as an API key grants and revokes only what it holds
 * (global_admin holds all). Without a grantor (the CLI, the settings file) nothing is refused.
 */
export function assertMayChangePermissions(
  grantor: KeyGrant | undefined,
  before: readonly string[],
  after: readonly string[] | undefined,
): void {
  if (!grantor || after === undefined) return;
  const changed = [
    ...after.filter((p) => !before.includes(p)),
    ...before.filter((p) => !after.includes(p)),
  ];
  const lacking = permissionsLacking(grantor, changed);
  if (lacking.length > 0) {
    throw new ForbiddenError(
      `Changing a group's permissions needs the permissions changed: ${lacking.join(', ')}`,
    );
  }
}

/** Refuses making someone a member of, or no longer a member of, a group granting more than the grantor holds. */
export function assertMayChangeMembers(
  grantor: KeyGrant | undefined,
  group: { name: string; permissions: readonly string[] },
): void {
  assertHoldsAll(grantor, group.permissions, `The group "${group.name}" grants`);
}
