import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import { ImageSchema } from '../images';
import { ExecConfigSchema, RunConfigSchema, VolumeMappingsSchema } from './registry-entry.schemas';

/** Each key of an entry's config that an installed workspace does not honour (spec §11). */
export const IgnoredConfigSchema = Type.Array(
  Type.Object({
    key: Type.String({ description: 'e.g. exec_config.go.user' }),
    reason: Type.String(),
  }),
  { description: 'The entry config keys a workspace from it does not honour, each with why' },
);

const FieldProblemSchema = Type.Object({ field: Type.String(), message: Type.String() });

export const InvalidWorkspaceSchema = Type.Object({
  index: Type.Integer({ description: 'Position in the list (0-based)' }),
  name: Type.Union([Type.String(), Type.Null()]),
  problems: Type.Array(FieldProblemSchema),
});

export const RegistrySchema = Type.Object({
  registry_id: Type.String(),
  registry_url: Type.String(),
  name: Type.String(),
  description: Type.String(),
  icon: Type.String(),
  list_url: Type.String(),
  contact_url: Type.String(),
  schema_version: Type.String(),
  workspace_count: Type.Integer({ description: 'Valid workspaces stored' }),
  invalid_workspaces: Type.Array(InvalidWorkspaceSchema, {
    description: 'Entries of the last fetch that were skipped',
  }),
  last_fetched: TimestampSchema,
  created: TimestampSchema,
});
export type RegistryResponse = Static<typeof RegistrySchema>;

export const RegistryEnvelopeSchema = Type.Object({ registry: RegistrySchema });
export const RegistriesSchema = Type.Object({ registries: Type.Array(RegistrySchema) });

export const RefreshResultSchema = Type.Object({
  registry: RegistrySchema,
  added: Type.Array(Type.String()),
  changed: Type.Array(Type.String()),
  removed: Type.Array(Type.String()),
});

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const RegistryWorkspaceSchema = Type.Object({
  name: Type.String(),
  friendly_name: Type.String(),
  description: Type.String(),
  image_src: Type.String(),
  docker_registry: Type.String(),
  run_config: RunConfigSchema,
  exec_config: ExecConfigSchema,
  categories: Type.Array(Type.String()),
  architecture: Type.Array(Type.String()),
  compatibility: Type.Array(Type.String(), { description: 'Platform versions, <major>.<minor>.x' }),
  image: Type.String({ description: 'The container image an install on this platform uses' }),
  uncompressed_size_mb: Nullable(Type.Number()),
  available_tags: Type.Array(Type.String()),
  notes: Nullable(Type.String()),
  cores: Nullable(Type.Number()),
  memory: Nullable(Type.Number({ description: 'MB' })),
  gpu_count: Nullable(Type.Integer()),
  volume_mappings: Nullable(VolumeMappingsSchema),
  cpu_allocation_method: Nullable(Type.String()),
  compatible: Type.Boolean({ description: 'Lists this platform version' }),
  installed: Type.Boolean(),
  ignored_config: IgnoredConfigSchema,
});
export type RegistryWorkspaceResponse = Static<typeof RegistryWorkspaceSchema>;

export const RegistryWorkspacesSchema = Type.Object({
  workspaces: Type.Array(RegistryWorkspaceSchema),
  platform_version: Type.String({
    description: 'What compatibility is judged against, e.g. 1.16.x',
  }),
  hidden_incompatible: Type.Integer({
    description: 'Incompatible workspaces left out (0 with show_incompatible)',
  }),
});

export const AddRegistryBodySchema = Type.Object({
  registry_url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'http(s) URL, or an absolute directory path',
  }),
});
export const RegistryIdBodySchema = Type.Object({ registry_id: IdSchema });
export const GetRegistryWorkspacesBodySchema = Type.Object({
  registry_id: IdSchema,
  show_incompatible: Type.Optional(Type.Boolean({ default: false })),
});
export const InstallWorkspaceBodySchema = Type.Object({
  registry_id: IdSchema,
  name: Type.String({
    minLength: 1,
    maxLength: 255,
    description: "The workspace's name in the registry",
  }),
  force: Type.Optional(
    Type.Boolean({ default: false, description: 'Install even when not compatible' }),
  ),
});

export const InstallResultSchema = Type.Object({
  image: ImageSchema,
  ignored_config: IgnoredConfigSchema,
});
