import type { TargetType } from '../file-mappings/mapping-target';
import { profilePathProblems } from '../images/profile-path';
import { normalizeHostname, normalizeUsername } from '../domain/names';
import { emptyDesired, type DesiredSettings, type DesiredTarget } from './desired';
import { problemAt, type Location, type PathSegment, type SettingsProblem } from './problems';
import {
  normalizeMapping,
  owners,
  section,
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
  ZoneSettingSchema,
  type FileMappingSetting,
} from './settings-file.schemas';

export type { ContentFiles } from './settings-items';

/**
 * Turns a schema-checked settings document into what the planner compares with the database,
 * and finds what the schema cannot: names listed twice, profile path rules, content rules.
 * References to the database (unknown workspaces, groups, users, zones) are the planner's.
 */
export function normalizeSettings(
  value: Record<string, unknown>,
  locate: Locate,
  contentFiles: ContentFiles,
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

  const zoneItems = Array.isArray(value.zones) ? (value.zones as unknown[]) : [];
  desired.zoneNames = zoneItems.flatMap((z) => {
    const name = (z as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? [name.trim()] : [];
  });
  type Zone = { name: string; proxy_hostname: string; proxy_path?: string; proxy_port?: number };
  for (const { item, path } of section<Zone>(value, 'zones', ZoneSettingSchema)) {
    const name = item.name.trim();
    const at = locate([...path, 'name']);
    if (!unique(`zone ${name}`, at, `zone "${name}"`)) continue;
    const proxy = {
      proxyHostname: normalizeHostname(item.proxy_hostname),
      proxyPath: item.proxy_path ?? '/',
    };
    desired.zones.push({ name, ...proxy, proxyPort: item.proxy_port ?? 443, at });
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
  for (const { item, path } of section<Agent>(value, 'agents', AgentSettingSchema)) {
    const hostname = normalizeHostname(item.hostname);
    const at = locate([...path, 'hostname']);
    if (!unique(`agent ${hostname}`, at, `agent "${hostname}"`)) continue;
    if (!item.docker_url && (item.cores === undefined || item.memory === undefined)) {
      problems.push(problemAt(at, 'needs cores and memory, or a docker_url to detect them from'));
      continue;
    }
    desired.agents.push({
      hostname,
      zone: item.zone.trim(),
      dockerUrl: item.docker_url ?? '',
      tlsCaPath: item.tls_ca_path ?? '',
      tlsCertPath: item.tls_cert_path ?? '',
      tlsKeyPath: item.tls_key_path ?? '',
      // An engine agent's resources are detected: the file's, if any, are not applied.
      cores: item.docker_url ? undefined : item.cores,
      memory: item.docker_url ? undefined : item.memory,
      coresOverride: item.cores_override ?? 0,
      memoryOverride: item.memory_override ?? 0,
      at,
      zoneAt: locate([...path, 'zone']),
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
  const addTarget = (
    type: TargetType,
    name: string,
    path: PathSegment[],
    key: string,
    mappings?: unknown,
  ) => {
    const target = { type, name, at: locate([...path, key]) };
    if (!unique(`${type} ${name}`, target.at, `${type === 'image' ? 'workspace' : type} "${name}"`))
      return false;
    desired.targets.push(target);
    addMappings(target, mappings, path);
    return true;
  };

  type Workspace = { name: string; persistent_profile_path?: string; file_mappings?: unknown };
  for (const { item, path } of owners<Workspace>(value, 'workspaces', WorkspaceSettingSchema)) {
    const name = item.name.trim();
    const profilePath = item.persistent_profile_path;
    const pathAt = locate([...path, 'persistent_profile_path']);
    if (profilePath !== undefined)
      problems.push(...profilePathProblems(profilePath).map((m) => problemAt(pathAt, m)));
    if (addTarget('image', name, path, 'name', item.file_mappings))
      desired.workspaces.push({
        name,
        persistentProfilePath: profilePath,
        at: locate([...path, 'name']),
      });
  }
  type Named = { name: string; file_mappings?: unknown };
  for (const { item, path } of owners<Named>(value, 'groups', GroupSettingSchema))
    addTarget('group', item.name.trim(), path, 'name', item.file_mappings);
  type User = { username: string; file_mappings?: unknown };
  for (const { item, path } of owners<User>(value, 'users', UserSettingSchema))
    addTarget('user', normalizeUsername(item.username), path, 'username', item.file_mappings);

  return { desired, problems };
}
