import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AgentFields, EngineAgentFields } from '../agents';
import { PermissionSchema, PERMISSIONS } from '../api-keys';
import { FileMappingFields } from '../file-mappings';
import { groupPolicySchemas } from '../groups';
import {
  IdleActionSchema,
  IdleLimitSchema,
  ProfilePathSchema,
  workspacePolicySchemas,
} from '../images';
import { StagingFields } from '../staging';
import { ZONE_DEFAULTS, ZoneFields } from '../zones';
import { SsoProviderSettingSchema } from './settings-sso.schemas';

/** Where the settings file is documented: a path from the repository's root and its section. */
export const SETTINGS_DOCS = 'docs/settings.md#the-settings-file';

// The field rules are the operations' own; only defaults and descriptions are added here.
const withDefault = <T extends TSchema>(schema: T, value: unknown) =>
  Type.Optional({ ...schema, default: value });
const Strict = { additionalProperties: false } as const;

export const FileMappingSettingSchema = Type.Object(
  {
    name: FileMappingFields.name,
    description: withDefault(FileMappingFields.description, ''),
    destination: FileMappingFields.destination,
    executable: withDefault(FileMappingFields.executable, false),
    content: Type.Optional(FileMappingFields.content),
    content_file: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description:
          'a file whose text is the content: relative to this settings file, inside its directory',
      }),
    ),
  },
  {
    ...Strict,
    description:
      'Identified by its destination. Give content or content_file (not both); neither is an empty file',
  },
);

const FileMappings = Type.Optional(
  Type.Array(FileMappingSettingSchema, {
    description: 'Without --prune, mappings not listed stay',
  }),
);

export const ZoneSettingSchema = Type.Object(
  {
    name: ZoneFields.name,
    proxy_hostname: ZoneFields.proxy_hostname,
    proxy_path: withDefault(ZoneFields.proxy_path, ZONE_DEFAULTS.proxy_path),
    proxy_port: withDefault(ZoneFields.proxy_port, ZONE_DEFAULTS.proxy_port),
  },
  { ...Strict, description: 'Identified by name' },
);

export const AgentSettingSchema = Type.Object(
  {
    hostname: AgentFields.hostname,
    zone: Type.String({
      minLength: 1,
      description: 'The name of a zone in this file (or, without --prune, in the database)',
    }),
    ...EngineAgentFields,
    cores_override: withDefault(AgentFields.cores_override, 0),
    memory_override: withDefault(AgentFields.memory_override, 0),
  },
  {
    ...Strict,
    description: 'Identified by hostname. Allocation is not a setting: apply never changes it',
  },
);

export const StagingSettingSchema = Type.Object(
  {
    zone: Type.String({
      minLength: 1,
      description: 'The name of a zone in this file (or, without --prune, in the database)',
    }),
    num_sessions: StagingFields.num_sessions,
    expiration: StagingFields.expiration,
  },
  {
    ...Strict,
    description:
      'Sessions kept started and unassigned in the zone, for instant launches; identified by zone',
  },
);

export const WorkspaceSettingSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      description: 'An installed workspace, by its image name: kasmweb/terminal:1.16.0',
    }),
    persistent_profile_path: Type.Optional(ProfilePathSchema),
    idle_limit_seconds: Type.Optional(IdleLimitSchema),
    idle_action: Type.Optional(IdleActionSchema),
    ...workspacePolicySchemas(),
    file_mappings: FileMappings,
    staging: Type.Optional(
      Type.Array(StagingSettingSchema, {
        description:
          'Not for a workspace with a persistent_profile_path. Without --prune, staging of zones not listed stays',
      }),
    ),
  },
  { ...Strict, description: 'Workspaces are installed from a registry, never created here' },
);

export const GroupSettingSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'An existing group' }),
    permissions: Type.Optional(
      Type.Array(PermissionSchema, {
        maxItems: PERMISSIONS.length,
        uniqueItems: true,
        description:
          "What its members hold, from the API keys' catalogue (Administrators: global_admin). Absent: left as they are, also with --prune",
      }),
    ),
    ...groupPolicySchemas(),
    file_mappings: FileMappings,
  },
  Strict,
);

export const UserSettingSchema = Type.Object(
  {
    username: Type.String({ minLength: 1, description: 'An existing user' }),
    file_mappings: FileMappings,
  },
  Strict,
);

export const SettingsFileSchema = Type.Object(
  {
    version: Type.Literal(1, { description: 'The format version of this file' }),
    zones: Type.Optional(Type.Array(ZoneSettingSchema)),
    agents: Type.Optional(Type.Array(AgentSettingSchema)),
    workspaces: Type.Optional(Type.Array(WorkspaceSettingSchema)),
    groups: Type.Optional(Type.Array(GroupSettingSchema)),
    users: Type.Optional(Type.Array(UserSettingSchema)),
    sso_providers: Type.Optional(Type.Array(SsoProviderSettingSchema)),
  },
  {
    ...Strict,
    title: 'workspace-api administrator settings',
    description: `Applied with \`settings apply <file>\` after every deployment; see the repository's ${SETTINGS_DOCS}`,
  },
);
export type SettingsFile = Static<typeof SettingsFileSchema>;
export type FileMappingSetting = Static<typeof FileMappingSettingSchema>;
export type StagingSetting = Static<typeof StagingSettingSchema>;

/** The JSON Schema editors validate the YAML file with; committed as examples/settings/settings.schema.json. */
export function settingsJsonSchema(): Record<string, unknown> {
  // JSON.stringify drops TypeBox's symbol keys, leaving plain JSON Schema.
  const schema = JSON.parse(JSON.stringify(SettingsFileSchema)) as Record<string, unknown>;
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...schema };
}

export const settingsJsonSchemaText = () => `${JSON.stringify(settingsJsonSchema(), null, 2)}\n`;
