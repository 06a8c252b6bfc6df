import type { TargetType } from '../file-mappings';
import type { GroupPolicy } from '../groups';
import type { WorkspacePolicy } from '../images';
import type { AgentValues, ZoneValues } from './settings-changes';
import type { Location } from './settings-problems';

/** The settings file as the planner reads it: normalized, defaults filled, each item with its place in the file. */
export interface DesiredZone extends ZoneValues {
  at: Location;
}

export interface DesiredAgent extends AgentValues {
  at: Location;
  zoneAt: Location;
}

/** The policy fields the file gives (absent: left alone, unless --prune for a workspace). */
export interface DesiredWorkspace extends Partial<WorkspacePolicy> {
  name: string;
  /** Absent: the file leaves the path alone (unless --prune, which clears it). */
  persistentProfilePath?: string;
  /** Absent: left alone (unless --prune, which lifts it); 0 lifts it. */
  idleLimitSeconds?: number;
  /** Absent: left alone (unless --prune, which sets stop, the default). */
  idleAction?: 'stop' | 'destroy';
  at: Location;
}

/** Absent refusals are left alone, also with --prune: a file never lifts one by leaving it out. */
export interface DesiredGroup extends Partial<GroupPolicy> {
  name: string;
  /** Absent: the file leaves the group's permissions alone (--prune too). */
  permissions?: string[];
  at: Location;
}

/** A workspace, group or user named in the file, by its stable name. */
export interface DesiredTarget {
  type: TargetType;
  name: string;
  at: Location;
}

export interface DesiredMapping {
  target: DesiredTarget;
  name: string;
  description: string;
  destination: string;
  executable: boolean;
  content: string;
  at: Location;
}

/** Staging of a workspace in a zone, identified by the pair. */
export interface DesiredStaging {
  workspace: DesiredTarget;
  zone: string;
  numSessions: number;
  expirationHours: number;
  at: Location;
}

/** An identity provider, described whole; its settings block as written (secrets by reference). */
export interface DesiredSsoProvider {
  name: string;
  kind: string;
  displayName: string;
  enabled: boolean;
  settings: object;
  /** Groups by name. */
  mappings: { value: string; group: string }[];
  at: Location;
}

export interface DesiredSettings {
  zones: DesiredZone[];
  /** Every zone name in the file, also of zones with problems: agents naming those get no second problem. */
  zoneNames: string[];
  agents: DesiredAgent[];
  /** The zone of every agent in the file, also of agents with problems: each is checked. */
  zoneReferences: { name: string; at: Location }[];
  workspaces: DesiredWorkspace[];
  groups: DesiredGroup[];
  /** Every workspace, group and user the file names, with or without mappings. */
  targets: DesiredTarget[];
  mappings: DesiredMapping[];
  staging: DesiredStaging[];
  ssoProviders: DesiredSsoProvider[];
  /** The group of every provider's mapping, also of providers with other problems: each is checked. */
  ssoGroupReferences: { name: string; at: Location }[];
}

export const emptyDesired = (): DesiredSettings => ({
  zones: [],
  zoneNames: [],
  agents: [],
  zoneReferences: [],
  workspaces: [],
  groups: [],
  targets: [],
  mappings: [],
  staging: [],
  ssoProviders: [],
  ssoGroupReferences: [],
});
