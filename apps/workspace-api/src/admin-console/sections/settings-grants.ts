import { permissionsLacking } from '../../api-keys';
import { ForbiddenError } from '../../errors';
import type { ApplyResult } from '../../settings';
import { type AdminPerson, requirePermission } from '../admin-context';

const listed = (value: unknown) =>
  new Set(
    String(value ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  );

/**
 * A settings file may change what groups grant. Applying it from the console then needs what
 * update_group needs: groups.modify and every permission granted or taken away, so that
 * settings.modify alone cannot make anyone an administrator. (The CLI, run on the server, is
 * not asked.)
 */
export function requireGrantsOf(person: AdminPerson, changes: ApplyResult['changes']): void {
  const moved = new Set<string>();
  for (const change of changes) {
    if ((change.entity as string) !== 'group') continue;
    requirePermission(person, 'groups.modify');
    for (const { field, from, to } of change.fields) {
      if (field !== 'permissions') continue;
      const [before, after] = [listed(from), listed(to)];
      for (const p of after) if (!before.has(p)) moved.add(p);
      for (const p of before) if (!after.has(p)) moved.add(p);
    }
  }
  const lacking = permissionsLacking(person.grant, [...moved]);
  if (lacking.length > 0)
    throw new ForbiddenError(
      `This file changes what groups grant; your groups lack ${lacking.join(', ')}`,
    );
}
