import type { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';

const OptionalId = (description: string) => Type.Optional({ ...IdSchema, description });

export const GetRecordingsBodySchema = Type.Object({
  user_id: OptionalId("The session's user"),
  image_id: OptionalId("The session's workspace"),
  kasm_id: OptionalId('The session'),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Started at or after' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Started before' })),
  page: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: '0-based' }),
  page_size: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
});
export type GetRecordingsBody = Static<typeof GetRecordingsBodySchema>;

export const RecordingSchema = Type.Object({
  recording_id: Type.String(),
  kasm_id: Type.String(),
  user_id: Type.Union([Type.String(), Type.Null()]),
  username: Type.String(),
  image_id: Type.Union([Type.String(), Type.Null()]),
  image_name: Type.String(),
  status: Type.String({
    description:
      'recording (under way), complete, failed (could not be written), interrupted (its process stopped: the file holds what reached the disk)',
  }),
  keystrokes: Type.Boolean({ description: 'Whether it holds the key events typed' }),
  bytes: Type.Integer(),
  chunks: Type.Integer(),
  digest: Type.Union([Type.String(), Type.Null()], {
    description: "The digest chain's last link (hex) as of the last flush",
  }),
  started: TimestampSchema,
  ended: TimestampSchema,
  expires: TimestampSchema,
  location: Type.Union([Type.Literal('local'), Type.Literal('store')], {
    description:
      'local: a file in RECORDINGS_DIR (under way, or not uploaded yet); store: in the S3-compatible store, verified (docs/recording.md#storage)',
  }),
  upload_attempts: Type.Integer({ description: 'Failed uploads to the store so far' }),
  upload_error: Type.Union([Type.String(), Type.Null()], {
    description: "The last failed upload's reason, until one succeeds",
  }),
});
export type RecordingResponse = Static<typeof RecordingSchema>;

export const RecordingsPageSchema = Type.Object({
  recordings: Type.Array(RecordingSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});

export const RecordingIdBodySchema = Type.Object({ recording_id: IdSchema });

export const RecordingFileSchema = Type.Unsafe<Readable>({
  type: 'string',
  format: 'binary',
  description:
    'application/octet-stream: the recording file (docs/recording.md), streamed from RECORDINGS_DIR or the S3-compatible store; headers x-recording-digest (the chain’s last link) and repr-digest (SHA-256 of the bytes)',
});

export const VerifiedSchema = Type.Object({
  ok: Type.Boolean(),
  reason: Type.Union([Type.String(), Type.Null()]),
  chunks: Type.Integer({ description: 'Chunks verified' }),
  digest: Type.Union([Type.String(), Type.Null()]),
  duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  ended: Type.Boolean({ description: 'Whether the file holds its end marker' }),
});
