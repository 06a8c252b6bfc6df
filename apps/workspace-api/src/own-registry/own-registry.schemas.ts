import { Type, type Static } from '@sinclair/typebox';

/** One workspace of the own list: the 1.1 entry shape the registry loader reads. */
const OwnEntrySchema = Type.Object({
  friendly_name: Type.String(),
  description: Type.String(),
  image_src: Type.String(),
  docker_registry: Type.String(),
  categories: Type.Array(Type.String()),
  architecture: Type.Array(Type.String()),
  cores: Type.Number(),
  memory: Type.Number({ description: 'MB' }),
  compatibility: Type.Array(
    Type.Object({
      version: Type.String({ description: 'this platform’s series, e.g. 1.16.x' }),
      image: Type.String(),
      uncompressed_size_mb: Type.Optional(Type.Number()),
      available_tags: Type.Array(Type.String()),
    }),
  ),
});

export const OwnRegistryListSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  list_url: Type.String(),
  workspacecount: Type.Integer(),
  workspaces: Type.Array(OwnEntrySchema),
});
export type OwnRegistryList = Static<typeof OwnRegistryListSchema>;

export const OwnIconParamsSchema = Type.Object({
  file: Type.String({ maxLength: 64, pattern: '^[a-z0-9-]+\\.svg$' }),
});
