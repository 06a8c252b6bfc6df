import type { FieldProblem } from '@platform/errors';
import { checkEngineAddress, type EngineAddress, type EnginePolicy } from '../engines';
import type { TargetType } from '../file-mappings';
import { GROUP_POLICY_SWITCHES, type GroupPolicy } from '../groups';
import { profilePathProblems, WORKSPACE_POLICY_FIELDS, type WorkspacePolicy } from '../images';
import { normalizeHostname, normalizeUsername } from '../domain';
import { emptyDesired, type DesiredSettings, type DesiredTarget } from './settings-desired';
import {
  problemAt,
  type Location,
  type PathSegment,
  type SettingsProblem,
} from './settings-problems';
import {
  givenPolicy,
  normalizeMapping,
  owners,
  section,
  textField,
  validItems,
  type ContentFiles,
  type Locate,
} from './settings-items';
import {
  AgentSettingSchema,
  FileMappingSettingSchema,
  GroupSettingSchema,
  UserSettingSchema,
  WorkspaceSettingSchema,
  StagingSettingSchema,
  ZoneSettingSchema,
  type FileMappingSetting,
  type StagingSetting,
} from './settings-file.schemas';
import { normalizeSsoProviders } from './settings-sso';

export type { ContentFiles } from './settings-items';

/** The operator's engine policy, and what reading each agent's TLS files found (settings-load.ts). */
export interface EngineChecks {
  policy: EnginePolicy;
  tlsProblems: ReadonlyMap<string, FieldProblem[]>;
}

export const engineAddressKey = (a: EngineAddress) =>
  [a.dockerUrl, a.tlsCaPath, a.tlsCertPath, a.tlsKeyPath].join('\n');

/** An agent item's engine address as the file writes it, '' where left out. */
export const engineAddressOf = (item: {
  docker_url?: string;
  tls_ca_path?: string;
  tls_cert_path?: string;
  tls_key_path?: string;
}): EngineAddress => ({
  dockerUrl: item.docker_url ?? '',
  tlsCaPath: item.tls_ca_path ?? '',
  tlsCertPath: item.tls_cert_path ?? '',
  tlsKeyPath: item.tls_key_path ?? '',
});

/**
 * Turns a schema-checked settings document into what the planner compares with the database,
 * and finds what the schema cannot: names listed twice, profile path rules, content rules.
 * References to the database (unknown workspaces, groups, users, zones) are the planner's.
 */
export function normalizeSettings(
  value: Record<string, unknown>,
  locate: Locate,
  contentFiles: ContentFiles,
  engines: EngineChecks,
): { desired: DesiredSettings; problems: SettingsProblem[] } {
  const desired = emptyDesired();
  const problems: SettingsProblem[] = [];
  const firstAt = new Map<string, Location>();
  /** False (and a problem) when `key` was listed before. */
  const unique = (key: string, at: Location, what: string) => {
    const first = firstAt.get(key);
    if (first)
      problems.push(problemAt(at, `${what} is listed twice (first at line ${first.line})`));
    else firstAt.set(key, at);
    return !first;
  };

  type Zone = { name: string; proxy_hostname: string; proxy_path?: string; proxy_port?: number };
  for (const { raw, valid, path } of section<Zone>(value, 'zones', ZoneSettingSchema)) {
    const name = textField(raw, 'name');
    if (name === undefined) continue;
    desired.zoneNames.push(name);
    const at = locate([...path, 'name']);
    if (!unique(`zone ${name}`, at, `zone "${name}"`) || !valid) continue;
    const proxy = {
      proxyHostname: normalizeHostname(valid.proxy_hostname),
      proxyPath: valid.proxy_path ?? '/',
    };
    desired.zones.push({ name, ...proxy, proxyPort: valid.proxy_port ?? 443, at });
  }

  type Agent = {
    hostname: string;
    zone: string;
    docker_url?: string;
    tls_ca_path?: string;
    tls_cert_path?: string;
    tls_key_path?: string;
    cores?: number;
    memory?: number;
    cores_override?: number;
    memory_override?: number;
  };
  for (const { raw, valid, path } of section<Agent>(value, 'agents', AgentSettingSchema)) {
    const zone = textField(raw, 'zone');
    const zoneAt = locate([...path, 'zone']);
    if (zone !== undefined) desired.zoneReferences.push({ name: zone, at: zoneAt });
    const written = textField(raw, 'hostname');
    const hostname = written === undefined ? undefined : normalizeHostname(written);
    const at = locate([...path, 'hostname']);
    if (hostname === undefined || !unique(`agent ${hostname}`, at, `agent "${hostname}"`)) continue;
    if (!valid) continue;
    if (!valid.docker_url && (valid.cores === undefined || valid.memory === undefined)) {
      problems.push(problemAt(at, 'needs cores and memory, or a docker_url to detect them from'));
      continue;
    }
    const address = engineAddressOf(valid);
    const checked = checkEngineAddress(address, engines.policy);
    const engineProblems = checked.ok
      ? (engines.tlsProblems.get(engineAddressKey(address)) ?? [])
      : checked.problems;
    if (engineProblems.length > 0) {
      for (const p of engineProblems)
        problems.push(problemAt(locate([...path, p.field]), p.message));
      continue;
    }
    desired.agents.push({
      hostname,
      zone: valid.zone.trim(),
      ...address,
      // An engine agent's resources are detected: the file's, if any, are not applied.
      cores: valid.docker_url ? undefined : valid.cores,
      memory: valid.docker_url ? undefined : valid.memory,
      coresOverride: valid.cores_override ?? 0,
      memoryOverride: valid.memory_override ?? 0,
      at,
      zoneAt,
    });
  }

  const addMappings = (target: DesiredTarget, mappings: unknown, path: PathSegment[]) => {
    for (const { item, path: at } of validItems<FileMappingSetting>(
      mappings,
      [...path, 'file_mappings'],
      FileMappingSettingSchema,
    )) {
      const mapping = normalizeMapping(item, target, at, locate, contentFiles);
      if ('problems' in mapping) problems.push(...mapping.problems);
      else if (
        unique(
          `${target.type} ${target.name} ${mapping.destination}`,
          mapping.at,
          `destination ${mapping.destination}`,
        )
      )
        desired.mappings.push(mapping);
    }
  };
  /** A workspace, group or user the file names, valid or not: its name is checked against the database. */
  const addTarget = (type: TargetType, name: string, path: PathSegment[], key: string) => {
    const target = { type, name, at: locate([...path, key]) };
    if (!unique(`${type} ${name}`, target.at, `${type === 'image' ? 'workspace' : type} "${name}"`))
      return null;
    desired.targets.push(target);
    return target;
  };

  const addStaging = (workspace: DesiredTarget, list: unknown, path: PathSegment[]) => {
    for (const { item, path: at } of validItems<StagingSetting>(
      list,
      [...path, 'staging'],
      StagingSettingSchema,
    )) {
      const zone = item.zone.trim();
      const zoneAt = locate([...at, 'zone']);
      desired.zoneReferences.push({ name: zone, at: zoneAt });
      if (!unique(`staging ${workspace.name} ${zone}`, zoneAt, `staging in zone "${zone}"`))
        continue;
      desired.staging.push({
        workspace,
        zone,
        numSessions: item.num_sessions,
        expirationHours: item.expiration,
        at: zoneAt,
      });
    }
  };

  type Workspace = {
    name: string;
    persistent_profile_path?: string;
    idle_limit_seconds?: number;
    idle_action?: 'stop' | 'destroy';
    file_mappings?: unknown;
  };
  type GroupSetting = { name: string; permissions?: string[]; file_mappings?: unknown };
  for (const { raw, valid, path } of owners<Workspace>(
    value,
    'workspaces',
    WorkspaceSettingSchema,
  )) {
    const name = textField(raw, 'name');
    const target = name === undefined ? null : addTarget('image', name, path, 'name');
    if (target) addMappings(target, raw.file_mappings, path);
    if (target) addStaging(target, raw.staging, path);
    if (!valid) continue;
    const profilePath = valid.persistent_profile_path;
    const pathAt = locate([...path, 'persistent_profile_path']);
    if (profilePath !== undefined)
      problems.push(...profilePathProblems(profilePath).map((m) => problemAt(pathAt, m)));
    if (target)
      desired.workspaces.push({
        name: target.name,
        persistentProfilePath: profilePath,
        idleLimitSeconds: valid.idle_limit_seconds,
        idleAction: valid.idle_action,
        ...givenPolicy<WorkspacePolicy>(valid, WORKSPACE_POLICY_FIELDS),
        at: target.at,
      });
  }
  for (const { raw, valid, path } of owners<GroupSetting>(value, 'groups', GroupSettingSchema)) {
    const name = textField(raw, 'name');
    const target = name === undefined ? null : addTarget('group', name, path, 'name');
    if (target) addMappings(target, raw.file_mappings, path);
    const policy = valid ? givenPolicy<GroupPolicy>(valid, GROUP_POLICY_SWITCHES) : {};
    if (target && valid && (valid.permissions || Object.keys(policy).length > 0))
      desired.groups.push({
        name: target.name,
        permissions: valid.permissions,
        ...policy,
        at: target.at,
      });
  }
  for (const { raw, path } of owners(value, 'users', UserSettingSchema)) {
    const name = textField(raw, 'username');
    const target =
      name === undefined ? null : addTarget('user', normalizeUsername(name), path, 'username');
    if (target) addMappings(target, raw.file_mappings, path);
  }
  normalizeSsoProviders(value, locate, unique, desired, problems);

  return { desired, problems };
}
