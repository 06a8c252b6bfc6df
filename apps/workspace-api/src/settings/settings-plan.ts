import { policyDefaults } from '../domain';
import { GROUP_POLICY_SWITCHES } from '../groups';
import {
  WORKSPACE_POLICY_FIELDS,
  WORKSPACE_POLICY_LIMITS,
  WORKSPACE_POLICY_SWITCHES,
} from '../images';
import {
  AGENT_FIELDS,
  changedValues,
  diffFields,
  MAPPING_FIELDS,
  STAGING_FIELDS,
  ZONE_FIELDS,
  type GroupValues,
  type SettingsChange,
  type TargetRef,
  type WorkspaceValues,
} from './settings-changes';
import type { CurrentSettings } from './settings-current';
import type { DesiredSettings } from './settings-desired';
import { problemAt, type SettingsProblem } from './settings-problems';
import { planDeletes } from './settings-prune';
import { namedKey, resolveTargets, targetKey, zoneProblems } from './settings-references';
import { planSsoProviders, pruneSsoProviders } from './settings-sso';

export interface SettingsPlan {
  /** In write order: deletes (mappings, agents, zones), then zones, agents, workspaces, groups, mappings. */
  changes: SettingsChange[];
  /** What in the file the database cannot satisfy. Any problem means nothing is written. */
  problems: SettingsProblem[];
}

type Options = { prune: boolean };
const byKey = (a: { key: string }, b: { key: string }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

function planZones(desired: DesiredSettings, current: CurrentSettings): SettingsChange[] {
  return desired.zones.flatMap(
    ({ name, proxyHostname, proxyPath, proxyPort }): SettingsChange[] => {
      const values = { name, proxyHostname, proxyPath, proxyPort };
      const row = current.zones.find((z) => z.name === name);
      if (!row)
        return [{ entity: 'zone', action: 'create', key: name, id: null, fields: [], values }];
      const fields = diffFields(row, values, ZONE_FIELDS);
      return fields.length
        ? [{ entity: 'zone', action: 'update', key: name, id: row.id, fields, values }]
        : [];
    },
  );
}

function planAgents(desired: DesiredSettings, current: CurrentSettings) {
  const zoneName = new Map(current.zones.map((z) => [z.id, z.name]));
  return desired.agents.flatMap(({ zoneAt: _zoneAt, at: _at, ...values }): SettingsChange[] => {
    const row = current.agents.find((a) => a.hostname === values.hostname);
    if (!row)
      return [
        { entity: 'agent', action: 'create', key: values.hostname, id: null, fields: [], values },
      ];
    const fields = diffFields(
      { ...row, zone: zoneName.get(row.zoneId) ?? '' },
      values,
      AGENT_FIELDS,
    );
    return fields.length
      ? [{ entity: 'agent', action: 'update', key: values.hostname, id: row.id, fields, values }]
      : [];
  });
}

const POLICY_DEFAULTS = policyDefaults(WORKSPACE_POLICY_SWITCHES, WORKSPACE_POLICY_LIMITS);
const WORKSPACE_FIELDS = [
  ['persistentProfilePath', 'persistent_profile_path'],
  ['idleLimitSeconds', 'idle_limit_seconds'],
  ['idleAction', 'idle_action'],
  ...WORKSPACE_POLICY_FIELDS.map(({ column, field }) => [column, field] as const),
] as const;

/**
 * A profile path, idle limit, idle action or policy field the file gives is set; with prune,
 * every workspace gets none of what the file does not give it (no path, no idle limit, the stop
 * action, the policy's defaults).
 */
function planWorkspaces(
  desired: DesiredSettings,
  current: CurrentSettings,
  resolved: Map<string, TargetRef>,
  { prune }: Options,
) {
  const wanted = new Map(
    desired.workspaces.map((w) => [resolved.get(namedKey({ type: 'image', name: w.name }))?.id, w]),
  );
  return current.images.flatMap((image): SettingsChange[] => {
    const w = wanted.get(image.id);
    const want = <T>(given: T | undefined, none: T) => given ?? (prune ? none : undefined);
    const policy = Object.fromEntries(
      WORKSPACE_POLICY_FIELDS.map(({ column }) => [
        column,
        w?.[column] === undefined ? want(undefined, POLICY_DEFAULTS[column]) : w[column],
      ]),
    );
    const target: WorkspaceValues = {
      persistentProfilePath: want(w?.persistentProfilePath, ''),
      // 0 in the file lifts the limit (stored as null).
      idleLimitSeconds:
        w?.idleLimitSeconds === undefined ? want(undefined, null) : w.idleLimitSeconds || null,
      idleAction: want(w?.idleAction, 'stop'),
      ...policy,
    };
    const fields = diffFields(image, target, WORKSPACE_FIELDS);
    if (fields.length === 0) return [];
    const values = changedValues(target, WORKSPACE_FIELDS, fields);
    return [
      { entity: 'workspace', action: 'update', key: image.name, id: image.id, fields, values },
    ];
  });
}

/**
 * Permissions the file gives a group replace the group's; a group it gives none keeps its own.
 * Its refusals likewise: each one given is set, one left out stays as it is (also with prune).
 */
function planGroups(desired: DesiredSettings, current: CurrentSettings) {
  const show = (permissions: readonly string[]) => [...permissions].sort().join(', ');
  return desired.groups.flatMap(({ name, permissions, at: _at, ...policy }): SettingsChange[] => {
    const row = current.groups.find((g) => g.name === name);
    if (!row) return [];
    const regranted = permissions && show(row.permissions) !== show(permissions);
    const refusals = diffFields(row, policy, GROUP_FIELDS);
    const fields = [
      ...(regranted
        ? [{ field: 'permissions', from: show(row.permissions), to: show(permissions) }]
        : []),
      ...refusals,
    ];
    if (fields.length === 0) return [];
    const values: GroupValues = {
      ...(regranted ? { permissions } : {}),
      ...changedValues(policy, GROUP_FIELDS, refusals),
    };
    return [{ entity: 'group', action: 'update', key: name, id: row.id, fields, values }];
  });
}
const GROUP_FIELDS = GROUP_POLICY_SWITCHES.map(({ column, field }) => [column, field] as const);

/** Mappings are identified by (target, destination). */
function planMappings(
  desired: DesiredSettings,
  current: CurrentSettings,
  resolved: Map<string, TargetRef>,
) {
  return desired.mappings.flatMap(({ target: named, at: _at, ...values }): SettingsChange[] => {
    const target = resolved.get(namedKey(named));
    if (!target) return [];
    const row = current.mappings.find(
      (m) => targetKey(m.target) === targetKey(target) && m.destination === values.destination,
    );
    const change = { entity: 'file_mapping' as const, key: values.destination, target, values };
    if (!row) return [{ ...change, action: 'create', id: null, fields: [] }];
    const fields = diffFields(row, values, MAPPING_FIELDS);
    return fields.length ? [{ ...change, action: 'update', id: row.id, fields }] : [];
  });
}

/**
 * Staging is identified by (workspace, zone). A workspace keeping a profile per user, by the file
 * or the database, cannot be staged: a session started before its user is known has none.
 */
function planStaging(
  desired: DesiredSettings,
  current: CurrentSettings,
  resolved: Map<string, TargetRef>,
  problems: SettingsProblem[],
) {
  const zoneName = new Map(current.zones.map((z) => [z.id, z.name]));
  return desired.staging.flatMap(({ workspace, at, ...values }): SettingsChange[] => {
    const target = resolved.get(namedKey(workspace));
    if (!target) return [];
    const profile =
      desired.workspaces.find((w) => w.name === workspace.name)?.persistentProfilePath ??
      current.images.find((i) => i.id === target.id)?.persistentProfilePath;
    if (profile) {
      problems.push(
        problemAt(
          at,
          `workspace "${workspace.name}" has a persistent_profile_path: it cannot be staged`,
        ),
      );
      return [];
    }
    const row = current.stagingConfigs.find(
      (s) => s.imageId === target.id && zoneName.get(s.zoneId) === values.zone,
    );
    const change = { entity: 'staging' as const, key: values.zone, target, values };
    if (!row) return [{ ...change, action: 'create', id: null, fields: [] }];
    const fields = diffFields({ ...row, zone: values.zone }, values, STAGING_FIELDS);
    return fields.length ? [{ ...change, action: 'update', id: row.id, fields }] : [];
  });
}

/**
 * What an apply must write so that the database matches the file, and what in the file the
 * database cannot satisfy. Pure: the same inputs give the same plan. Without `prune` nothing the
 * file does not name is removed; with it, agents, zones, file mappings and staging it does not name are
 * deleted and workspaces it gives no persistent_profile_path get none. Staging comes after
 * the zones and workspaces it names.
 */
export function planSettings(
  desired: DesiredSettings,
  current: CurrentSettings,
  options: Options,
): SettingsPlan {
  const { resolved, problems } = resolveTargets(desired.targets, current);
  problems.push(...zoneProblems(desired, current, options));
  const upserts = [
    planZones(desired, current),
    planAgents(desired, current),
    planWorkspaces(desired, current, resolved, options),
    planGroups(desired, current),
    planMappings(desired, current, resolved),
    planStaging(desired, current, resolved, problems),
    planSsoProviders(desired, current, problems),
  ].flatMap((list) => list.sort(byKey));
  const deletes = options.prune
    ? [...planDeletes(desired, current, resolved), ...pruneSsoProviders(desired, current)]
    : [];
  return { changes: [...deletes, ...upserts], problems };
}
