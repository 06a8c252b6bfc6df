import { Type, type Static } from '@sinclair/typebox';
import { CORES_MAX, CORES_MIN, MEMORY_MAX_MB, MEMORY_MIN_MB, SIZE_MAX_MB } from '../images';

// The shape of a registry's `<version>/list.json` and of each workspace in it (spec §6). Objects
// stay open: registries in the wild carry fields we do not use, and those must not reject an entry.

const Text = (maxLength: number) => Type.String({ maxLength });
const Command = Type.Object({ cmd: Text(8192) }, { additionalProperties: true });
const Url = Type.String({ maxLength: 2048, pattern: '^https?://', description: 'an http(s) URL' });

export const ExecConfigSchema = Type.Object(
  { go: Type.Optional(Command), assign: Type.Optional(Command) },
  { additionalProperties: true, description: 'Commands may use $KASM_URL' },
);
export const RunConfigSchema = Type.Object(
  { hostname: Type.Optional(Text(255)) },
  { additionalProperties: true },
);
export const VolumeMappingsSchema = Type.Object({}, { additionalProperties: true });

// Bounded here so that an entry which could not be installed is reported when the list loads.
const SizeMb = Type.Number({ minimum: 0, maximum: SIZE_MAX_MB, description: 'MB' });

const EntryFields = {
  friendly_name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Text(20_000),
  image_src: Text(2048),
  docker_registry: Url,
  run_config: Type.Optional(RunConfigSchema),
  exec_config: Type.Optional(ExecConfigSchema),
  categories: Type.Array(Text(255), { maxItems: 100 }),
  architecture: Type.Array(Text(32), { maxItems: 16 }),
  uncompressed_size_mb: Type.Optional(SizeMb),
  // Extras found in registries in the wild.
  notes: Type.Optional(Text(20_000)),
  cores: Type.Optional(Type.Number({ minimum: CORES_MIN, maximum: CORES_MAX })),
  memory: Type.Optional(
    Type.Number({ minimum: MEMORY_MIN_MB, maximum: MEMORY_MAX_MB, description: 'MB' }),
  ),
  gpu_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 64 })),
  volume_mappings: Type.Optional(VolumeMappingsSchema),
  cpu_allocation_method: Type.Optional(Text(32)),
};

/** Schema 1.0: `name` is `<repository>:<tag>`; compatibility lists `<major>.<minor>.x` strings. */
export const EntrySchemaV10 = Type.Object({
  name: Type.String({
    maxLength: 255,
    pattern: '^[^\\s:]+(:[0-9]+)?(/[^\\s:]+)*:[A-Za-z0-9_][A-Za-z0-9_.-]*$',
    description: '<repository>:<tag>',
  }),
  compatibility: Type.Array(Text(32), { maxItems: 100 }),
  ...EntryFields,
});
export type EntryV10 = Static<typeof EntrySchemaV10>;

/**
 * Schema 1.1 as the official registry publishes it: no top-level `name`; each compatibility row
 * names the image (and its tags) to use on one platform version, and the entry is known by its
 * `friendly_name`. A `name`, when a registry adds one, is kept as the entry's name.
 */
export const EntrySchemaV11 = Type.Object({
  name: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^\\S+$',
      description: 'a name without spaces',
    }),
  ),
  compatibility: Type.Array(
    Type.Object(
      {
        version: Text(32),
        image: Type.String({
          minLength: 1,
          maxLength: 255,
          pattern: '^\\S+$',
          description: 'an image without spaces',
        }),
        uncompressed_size_mb: Type.Optional(SizeMb),
        available_tags: Type.Optional(Type.Array(Text(128), { maxItems: 200 })),
      },
      { additionalProperties: true },
    ),
    { maxItems: 100 },
  ),
  ...EntryFields,
});
export type EntryV11 = Static<typeof EntrySchemaV11>;

/** The list itself; its workspaces are validated one by one so that one bad entry rejects only itself. */
export const RegistryListSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  workspaces: Type.Array(Type.Unknown()),
  icon: Type.Optional(Text(2048)),
  description: Type.Optional(Text(20_000)),
  list_url: Type.Optional(Text(2048)),
  contact_url: Type.Optional(Text(2048)),
  modified: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  workspacecount: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type RegistryList = Static<typeof RegistryListSchema>;
