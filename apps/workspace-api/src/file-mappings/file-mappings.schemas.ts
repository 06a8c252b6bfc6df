import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';

export const MAX_CONTENT_BYTES = 5 * 1024 * 1024;
/**
 * The writes carrying content get their own body limit: a 5 MiB script whose JSON escaping
 * doubles it still fits, while every other operation keeps BODY_LIMIT_BYTES.
 */
export const FILE_MAPPING_BODY_LIMIT_BYTES = 2 * MAX_CONTENT_BYTES + 1024 * 1024;

/** The rules of each file mapping setting, shared by the operations and the settings file. */
export const FileMappingFields = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }),
  description: Type.String({ maxLength: 2000 }),
  destination: Type.String({
    minLength: 2,
    maxLength: 1024,
    pattern: '^(/(?!\\.\\.?(/|$))[^/\\u0000]+)+$',
    description: 'an absolute file path without . or .. segments or a trailing /',
  }),
  executable: Type.Boolean({ description: 'Whether the file is made executable (scripts)' }),
  content: Type.String({
    maxLength: MAX_CONTENT_BYTES,
    description: 'Text, at most 5 MiB in UTF-8',
  }),
};

export const FileMappingSchema = Type.Object({
  file_mapping_id: Type.String(),
  image_id: Type.Union([Type.String(), Type.Null()]),
  group_id: Type.Union([Type.String(), Type.Null()]),
  user_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  description: Type.String(),
  destination: Type.String(),
  executable: Type.Boolean(),
  content: Type.String(),
  size: Type.Integer({ description: 'Bytes of content in UTF-8' }),
  created: TimestampSchema,
  updated: TimestampSchema,
});
export type FileMappingResponse = Static<typeof FileMappingSchema>;
export const FileMappingEnvelopeSchema = Type.Object({ file_mapping: FileMappingSchema });
export const FileMappingsSchema = Type.Object({
  file_mappings: Type.Array(FileMappingSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as cursor for the next page; null when this page is the last',
  }),
});

const Targets = {
  image_id: Type.Optional(IdSchema),
  group_id: Type.Optional(IdSchema),
  user_id: Type.Optional(IdSchema),
};
export type TargetIds = { image_id?: string; group_id?: string; user_id?: string };

/** A mapping's own settings as a create states them; an update may state any of them. */
const Settings = {
  name: FileMappingFields.name,
  description: Type.Optional(FileMappingFields.description),
  destination: FileMappingFields.destination,
  executable: Type.Optional(FileMappingFields.executable),
  content: Type.Optional(FileMappingFields.content),
};

export const CreateFileMappingBodySchema = Type.Object({
  target_file_mapping: Type.Object({ ...Targets, ...Settings }),
});
export type CreateFileMappingInput = Static<
  typeof CreateFileMappingBodySchema
>['target_file_mapping'];

export const GetFileMappingsBodySchema = Type.Object({
  target_file_mapping: Type.Optional(
    Type.Object(Targets, { description: 'At most one target; none lists every mapping' }),
  ),
  page_size: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description:
        'At most this many mappings (default 100); a page also ends before 8 MiB of content',
    }),
  ),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 4096, description: 'next_cursor of the page before' }),
  ),
});

export const UpdateFileMappingBodySchema = Type.Object({
  target_file_mapping: Type.Object({
    file_mapping_id: IdSchema,
    ...Type.Partial(Type.Object(Settings)).properties,
  }),
});
export type UpdateFileMappingInput = Static<
  typeof UpdateFileMappingBodySchema
>['target_file_mapping'];

export const TargetFileMappingBodySchema = Type.Object({
  target_file_mapping: Type.Object({ file_mapping_id: IdSchema }),
});
