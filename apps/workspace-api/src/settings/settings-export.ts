import { Document } from 'yaml';
import { policyDefaults } from '../domain';
import { GROUP_POLICY_SWITCHES } from '../groups';
import {
  WORKSPACE_POLICY_FIELDS,
  WORKSPACE_POLICY_LIMITS,
  WORKSPACE_POLICY_SWITCHES,
} from '../images';
import type { CurrentSettings } from './settings-current';
import { SETTINGS_DOCS } from './settings-file.schemas';
import { exportSsoProviders } from './settings-sso';

type Mapping = CurrentSettings['mappings'][number];

/** A mapping as the file writes it: defaults left out, content inline. */
function mappingEntry(m: Mapping) {
  return {
    name: m.name,
    ...(m.description ? { description: m.description } : {}),
    destination: m.destination,
    ...(m.executable ? { executable: true } : {}),
    content: m.content,
  };
}

const WORKSPACE_DEFAULTS = policyDefaults(WORKSPACE_POLICY_SWITCHES, WORKSPACE_POLICY_LIMITS);
const GROUP_DEFAULTS = policyDefaults(GROUP_POLICY_SWITCHES);

/** The policy fields of a row that differ from their defaults, under their file names. */
function policyEntries<Row extends object>(
  row: Row,
  fields: readonly { field: string; column: keyof Row & string }[],
  defaults: Partial<Record<keyof Row, unknown>>,
) {
  return Object.fromEntries(
    fields
      .filter(({ column }) => row[column] !== defaults[column])
      .map(({ field, column }) => [field, row[column]]),
  );
}

/**
 * The stored settings as a settings file that `settings apply` accepts unchanged: applying it to
 * the database it came from changes nothing, with or without --prune. Pure; names, never ids.
 */
export function exportSettings(current: CurrentSettings): string {
  const zoneName = new Map(current.zones.map((z) => [z.id, z.name]));
  const mappingsOf = (type: string, id: string) =>
    current.mappings.filter((m) => m.target.type === type && m.target.id === id).map(mappingEntry);

  const stagingOf = (imageId: string) =>
    current.stagingConfigs
      .filter((s) => s.imageId === imageId)
      .map((s) => ({
        zone: zoneName.get(s.zoneId) ?? '',
        num_sessions: s.numSessions,
        expiration: s.expirationHours,
      }));
  const workspaces = current.images
    .map((image) => ({
      image,
      mappings: mappingsOf('image', image.id),
      staging: stagingOf(image.id),
    }))
    .map(({ image, mappings, staging }) => ({
      name: image.name,
      ...(image.persistentProfilePath
        ? { persistent_profile_path: image.persistentProfilePath }
        : {}),
      ...(image.idleLimitSeconds ? { idle_limit_seconds: image.idleLimitSeconds } : {}),
      ...(image.idleAction !== 'stop' ? { idle_action: image.idleAction } : {}),
      ...policyEntries(image, WORKSPACE_POLICY_FIELDS, WORKSPACE_DEFAULTS),
      ...(mappings.length ? { file_mappings: mappings } : {}),
      ...(staging.length ? { staging } : {}),
    }))
    // A workspace with nothing set but its name says nothing.
    .filter((workspace) => Object.keys(workspace).length > 1);
  const withMappings = <T extends { id: string }>(
    type: string,
    rows: T[],
    named: (row: T) => object,
  ) =>
    rows
      .map((row) => ({ row, mappings: mappingsOf(type, row.id) }))
      .filter(({ mappings }) => mappings.length > 0)
      .map(({ row, mappings }) => ({ ...named(row), file_mappings: mappings }));

  const settings = {
    version: 1,
    zones: current.zones.map((z) => ({
      name: z.name,
      proxy_hostname: z.proxyHostname,
      proxy_path: z.proxyPath,
      proxy_port: z.proxyPort,
    })),
    agents: current.agents.map((a) => ({
      hostname: a.hostname,
      zone: zoneName.get(a.zoneId) ?? '',
      // An engine agent's cores and memory are what its engine reports: not settings.
      ...(a.dockerUrl
        ? {
            docker_url: a.dockerUrl,
            ...(a.tlsCaPath
              ? {
                  tls_ca_path: a.tlsCaPath,
                  tls_cert_path: a.tlsCertPath,
                  tls_key_path: a.tlsKeyPath,
                }
              : {}),
          }
        : { cores: a.cores, memory: a.memory }),
      cores_override: a.coresOverride,
      memory_override: a.memoryOverride,
    })),
    workspaces,
    groups: current.groups
      .map((g) => ({ g, mappings: mappingsOf('group', g.id) }))
      .map(({ g, mappings }) => ({
        name: g.name,
        ...(g.permissions.length ? { permissions: g.permissions } : {}),
        ...policyEntries(g, GROUP_POLICY_SWITCHES, GROUP_DEFAULTS),
        ...(mappings.length ? { file_mappings: mappings } : {}),
      }))
      // Likewise a group.
      .filter((group) => Object.keys(group).length > 1),
    users: withMappings('user', current.users, (u) => ({ username: u.username })),
    sso_providers: exportSsoProviders(current),
  };
  const doc = new Document(settings);
  doc.commentBefore =
    ' workspace-api administrator settings, written by `settings export`.\n' +
    ` Apply with \`settings apply <file>\`; the format is in the repository's ${SETTINGS_DOCS}.`;
  // lineWidth 0: never fold long lines; literal blocks keep scripts readable and exact.
  return doc.toString({ lineWidth: 0, blockQuote: 'literal' });
}
