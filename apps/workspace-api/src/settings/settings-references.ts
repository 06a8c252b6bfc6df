import { TARGET_NOUNS } from '../file-mappings';
import type { TargetRef } from './settings-changes';
import type { CurrentSettings } from './settings-current';
import type { DesiredSettings, DesiredTarget } from './settings-desired';
import { problemAt, type SettingsProblem } from './settings-problems';

export const targetKey = (t: { type: string; id: string }) => `${t.type}:${t.id}`;
export const namedKey = (t: { type: string; name: string }) => `${t.type} ${t.name}`;

function idsNamed(target: DesiredTarget, current: CurrentSettings): string[] {
  if (target.type === 'image')
    return current.images.filter((i) => i.name === target.name).map((i) => i.id);
  if (target.type === 'group')
    return current.groups.filter((g) => g.name === target.name).map((g) => g.id);
  return current.users.filter((u) => u.username === target.name).map((u) => u.id);
}

/**
 * The row behind each workspace, group and user the file names (keyed by namedKey), and a
 * problem for each name that matches no row, or several (image names are not unique).
 */
export function resolveTargets(targets: readonly DesiredTarget[], current: CurrentSettings) {
  const resolved = new Map<string, TargetRef>();
  const problems: SettingsProblem[] = [];
  for (const target of targets) {
    const ids = idsNamed(target, current);
    if (ids.length === 1) {
      resolved.set(namedKey(target), { type: target.type, id: ids[0], name: target.name });
    } else if (ids.length === 0) {
      const what =
        target.type === 'user' ? 'user has the username' : `${TARGET_NOUNS[target.type]} is named`;
      problems.push(problemAt(target.at, `no ${what} "${target.name}"`));
    } else {
      const message = `${ids.length} installed workspaces are named "${target.name}"; settings cannot tell them apart`;
      problems.push(problemAt(target.at, message));
    }
  }
  return { resolved, problems };
}

/** The name of every workspace, group and user row, by targetKey: for the diff of mappings to delete. */
export function targetNames(current: CurrentSettings): Map<string, string> {
  return new Map([
    ...current.images.map((i) => [targetKey({ type: 'image', id: i.id }), i.name] as const),
    ...current.groups.map((g) => [targetKey({ type: 'group', id: g.id }), g.name] as const),
    ...current.users.map((u) => [targetKey({ type: 'user', id: u.id }), u.username] as const),
  ]);
}

/**
 * An agent's zone is one the file names or, when nothing is pruned, one the database has. Every
 * agent's zone is checked, also of agents with other problems.
 */
export function zoneProblems(
  desired: DesiredSettings,
  current: CurrentSettings,
  { prune }: { prune: boolean },
): SettingsProblem[] {
  const inFile = new Set(desired.zoneNames);
  return desired.zoneReferences.flatMap(({ name, at }) => {
    const inDatabase = current.zones.some((z) => z.name === name);
    if (inFile.has(name) || (!prune && inDatabase)) return [];
    const why = inDatabase
      ? 'is not in this file, and --prune removes it'
      : 'is neither in this file nor in the database';
    return [problemAt(at, `zone "${name}" ${why}`)];
  });
}
