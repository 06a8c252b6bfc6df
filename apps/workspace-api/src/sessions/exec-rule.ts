import { createHash } from 'node:crypto';
import { holds, type KeyGrant } from '../api-keys';
import { isRootUser } from '../domain';
import { ForbiddenError } from '../errors';
import type { ExecCommandBody } from './sessions.schemas';

type Command = ExecCommandBody['exec_config'];

/**
 * A command run as root (uid or gid 0, by name or as the container resolves the user, the image's
 * own user included) or privileged in a session has the container's every power over the
 * session's user and files: it needs global_admin, not sessions.modify alone. `runsAsRoot` asks
 * the engine, only when the command's own fields do not already say root.
 */
export async function assertMayRun(
  grantor: KeyGrant | undefined,
  command: Command,
  runsAsRoot: () => Promise<boolean>,
): Promise<void> {
  if (!grantor || holds(grantor, 'global_admin')) return;
  if (command.privileged === true || isRootUser(command.user) || (await runsAsRoot())) {
    throw new ForbiddenError(
      'Running a command as root or privileged in a session needs the global_admin permission',
    );
  }
}

/** What the audit trail keeps of a command: its digest, never its text or environment. */
export function auditedCommand(command: unknown) {
  const c = (typeof command === 'object' && command !== null ? command : {}) as Partial<Command>;
  return {
    cmd_sha256: createHash('sha256')
      .update(String(c.cmd ?? ''))
      .digest('hex'),
    user: c.user ?? null,
    privileged: c.privileged === true,
  };
}
