import type { TargetType } from '../file-mappings';
import type { GroupPolicy } from '../groups';
import type { WorkspacePolicy } from '../images';

export interface FieldChange {
  /** As the settings file names it: `proxy_port`, `cores_override`. */
  field: string;
  from: unknown;
  to: unknown;
}

export interface ZoneValues {
  name: string;
  proxyHostname: string;
  proxyPath: string;
  proxyPort: number;
}
export interface AgentValues {
  hostname: string;
  /** The zone's name: a zone created by the same apply has no id yet. */
  zone: string;
  dockerUrl: string;
  tlsCaPath: string;
  tlsCertPath: string;
  tlsKeyPath: string;
  /** Absent for an engine agent that the file leaves to detect them. */
  cores?: number;
  memory?: number;
  coresOverride: number;
  memoryOverride: number;
}
/** What the settings file sets on an installed workspace. */
export interface WorkspaceValues extends Partial<WorkspacePolicy> {
  persistentProfilePath?: string;
  /** Null: no idle limit. */
  idleLimitSeconds?: number | null;
  idleAction?: 'stop' | 'destroy';
}

/** What the settings file sets on an existing group. */
export interface GroupValues extends Partial<GroupPolicy> {
  permissions?: string[];
}

export interface MappingValues {
  name: string;
  description: string;
  destination: string;
  executable: boolean;
  content: string;
}
export interface StagingValues {
  /** The zone's name: a zone created by the same apply has no id yet. */
  zone: string;
  numSessions: number;
  expirationHours: number;
}
/** An identity provider as the file describes it: settings as written, mappings' groups by name. */
export interface SsoProviderValues {
  name: string;
  kind: string;
  displayName: string;
  enabled: boolean;
  settings: object;
  mappings: { value: string; group: string }[];
}
export interface TargetRef {
  type: TargetType;
  id: string;
  name: string;
}

interface ChangeBase {
  action: 'create' | 'update' | 'delete';
  /** The stable name: zone name, hostname, image name, destination. */
  key: string;
  /** The row's id; null for a create. */
  id: string | null;
  /** What an update changes; empty for creates and deletes. */
  fields: FieldChange[];
}

/** One write of an apply. Deletes carry the values they remove, for the diff. */
export type SettingsChange =
  | (ChangeBase & { entity: 'zone'; values: ZoneValues })
  | (ChangeBase & { entity: 'agent'; values: AgentValues })
  | (ChangeBase & { entity: 'workspace'; values: WorkspaceValues })
  | (ChangeBase & { entity: 'group'; values: GroupValues })
  | (ChangeBase & { entity: 'file_mapping'; target: TargetRef; values: MappingValues })
  | (ChangeBase & { entity: 'staging'; target: TargetRef; values: StagingValues })
  | (ChangeBase & { entity: 'sso_provider'; values: SsoProviderValues });

/** The fields of `to` that differ from `from`, under their settings-file names; absent ones are left alone. */
export function diffFields<T extends object>(
  from: NoInfer<{ [K in keyof T]?: unknown }>,
  to: T,
  names: readonly (readonly [keyof T & string, string])[],
): FieldChange[] {
  return names
    .filter(([key]) => to[key] !== undefined && from[key] !== to[key])
    .map(([key, field]) => ({ field, from: from[key], to: to[key] }));
}

/** The values of `to` that `changes` change, under their keys in `to`. */
export function changedValues<T extends object>(
  to: T,
  names: readonly (readonly [keyof T & string, string])[],
  changes: readonly FieldChange[],
): Partial<T> {
  const changed = new Set(changes.map((c) => c.field));
  return Object.fromEntries(
    names.filter(([, field]) => changed.has(field)).map(([key]) => [key, to[key]]),
  ) as Partial<T>;
}

export const ZONE_FIELDS = [
  ['proxyHostname', 'proxy_hostname'],
  ['proxyPath', 'proxy_path'],
  ['proxyPort', 'proxy_port'],
] as const;
export const AGENT_FIELDS = [
  ['zone', 'zone'],
  ['dockerUrl', 'docker_url'],
  ['tlsCaPath', 'tls_ca_path'],
  ['tlsCertPath', 'tls_cert_path'],
  ['tlsKeyPath', 'tls_key_path'],
  ['cores', 'cores'],
  ['memory', 'memory'],
  ['coresOverride', 'cores_override'],
  ['memoryOverride', 'memory_override'],
] as const;
export const STAGING_FIELDS = [
  ['numSessions', 'num_sessions'],
  ['expirationHours', 'expiration'],
] as const;
export const MAPPING_FIELDS = [
  ['name', 'name'],
  ['description', 'description'],
  ['executable', 'executable'],
  ['content', 'content'],
] as const;
