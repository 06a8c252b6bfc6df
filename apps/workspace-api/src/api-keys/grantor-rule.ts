import { ForbiddenError } from '../errors';
import { type KeyGrant, permissionsLacking } from './permissions';

/**
 * The one rule for acting on whatever carries permissions (a group's members, a group, a user):
 * the caller must hold every permission it carries, as a key issues only what it holds
 * (global_admin holds all). `subject` starts the refusal, e.g. `The user "ann" holds`. Without a
 * grantor (the CLI, the settings file) nothing is refused.
 */
export function assertHoldsAll(
  grantor: KeyGrant | undefined,
  permissions: readonly string[],
  subject: string,
): void {
  const lacking = grantor ? permissionsLacking(grantor, permissions) : [];
  if (lacking.length > 0) {
    throw new ForbiddenError(`${subject} permissions the caller lacks: ${lacking.join(', ')}`);
  }
}
