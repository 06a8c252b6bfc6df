import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import { CORES_MAX, CORES_MIN, MEMORY_MAX_BYTES, MEMORY_MIN_BYTES } from './image-limits';
import { TargetUserSchema } from '../api';

const IDLE_LIMIT =
  'Seconds a running session may go without input on its stream (or a keepalive) before idle_action; null or 0: no limit';
const IDLE_ACTION = 'What ends an idle session: stop (kept, resumable with resume_kasm) or destroy';
export const IdleLimitSchema = Type.Integer({
  minimum: 0,
  maximum: 31_536_000,
  description: IDLE_LIMIT,
});
export const IdleActionSchema = Type.Union([Type.Literal('stop'), Type.Literal('destroy')], {
  description: IDLE_ACTION,
});

const OpenObject = Type.Object({}, { additionalProperties: true });
const ALLOW_UPLOADS =
  "Files may be uploaded into the session's ~/Uploads (Kasm's group setting of this name)";
const ALLOW_DOWNLOADS =
  "Files may be downloaded from the session's ~/Downloads (Kasm's group setting of this name)";
const ALLOW_ANONYMOUS_JOIN =
  'Whether people who are not signed in may join its shared sessions (join_kasm without user_id, share links held by anyone)';
const WATCH_NOTICE =
  "The session's owner is told on their page while an administrator watches it (sessions.watch); off where a policy says the owner must not be";
const ALLOW_AUDIO =
  "The session's desktop sound may be played in its browser (Kasm's setting of this name)";
const RECORD_SESSIONS =
  "Sessions are recorded by the service, from their first frame, out of the user's reach (docs/recording.md)";
const RECORD_KEYSTROKES =
  'Recordings hold the key events typed into the session (its pointer always)';
const REFUSE_UNRECORDED =
  'A recorded session that cannot be recorded is refused; false: it goes on unrecorded, reported';
const RETENTION_DAYS = 'Days a recording is kept before it is removed; null: kept for ever';
export const RetentionDaysSchema = Type.Integer({
  minimum: 1,
  maximum: 36_500,
  description: RETENTION_DAYS,
});
const MAX_UPLOAD = 'The largest upload in bytes; null: no limit';
export const MaxUploadSchema = Type.Integer({
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: MAX_UPLOAD,
});
const ALLOW_CLIPBOARD_UP =
  "Clipboard text may go from the browser into the session's desktop, enforced on the stream (Kasm's group setting of this name)";
const ALLOW_CLIPBOARD_DOWN =
  "Clipboard text may come out of the session's desktop to the browser, enforced on the stream (Kasm's group setting of this name)";
const MAX_CLIPBOARD = 'The largest clipboard text in bytes, either way; null: no limit';
export const MaxClipboardSchema = Type.Integer({
  minimum: 1,
  maximum: 1_073_741_824,
  description: MAX_CLIPBOARD,
});
const ALLOW_ROOT_EXEC =
  'UNSAFE: exec_config steps may run as root (user root or 0) and privileged; never set by a registry';
const ALLOW_PLAIN_HTTP =
  "UNSAFE: honour run_config.scheme http, where the proxy sends the container's password in clear";

/** An installed workspace, in Kasm's shape (Kasm calls it an image). */
export const ImageSchema = Type.Object({
  image_id: Type.String(),
  name: Type.String({ description: 'Container image, <repository>:<tag>' }),
  settings_name: Type.String({
    description: 'How settings files name it: unique, stable; the image name or "<name> (2)"',
  }),
  friendly_name: Type.String(),
  description: Type.String(),
  enabled: Type.Boolean(),
  cores: Type.Number(),
  memory: Type.Integer({ description: 'Bytes' }),
  gpu_count: Type.Integer(),
  cpu_allocation_method: Type.String(),
  image_src: Type.String(),
  docker_registry: Type.String(),
  run_config: OpenObject,
  exec_config: OpenObject,
  volume_mappings: OpenObject,
  allow_root_exec: Type.Boolean({ description: ALLOW_ROOT_EXEC }),
  allow_plain_http: Type.Boolean({ description: ALLOW_PLAIN_HTTP }),
  architecture: Type.Array(Type.String()),
  categories: Type.Array(Type.String()),
  uncompressed_size_mb: Type.Union([Type.Integer(), Type.Null()]),
  persistent_profile_path: Type.String(),
  idle_limit_seconds: Type.Union([Type.Integer(), Type.Null()], { description: IDLE_LIMIT }),
  idle_action: IdleActionSchema,
  allow_kasm_uploads: Type.Boolean({ description: ALLOW_UPLOADS }),
  allow_kasm_downloads: Type.Boolean({ description: ALLOW_DOWNLOADS }),
  max_upload_bytes: Type.Union([Type.Integer(), Type.Null()], { description: MAX_UPLOAD }),
  allow_kasm_clipboard_up: Type.Boolean({ description: ALLOW_CLIPBOARD_UP }),
  allow_kasm_clipboard_down: Type.Boolean({ description: ALLOW_CLIPBOARD_DOWN }),
  max_clipboard_bytes: Type.Union([Type.Integer(), Type.Null()], { description: MAX_CLIPBOARD }),
  allow_kasm_audio: Type.Boolean({ description: ALLOW_AUDIO }),
  allow_anonymous_join: Type.Boolean({ description: ALLOW_ANONYMOUS_JOIN }),
  record_sessions: Type.Boolean({ description: RECORD_SESSIONS }),
  record_keystrokes: Type.Boolean({ description: RECORD_KEYSTROKES }),
  refuse_unrecorded: Type.Boolean({ description: REFUSE_UNRECORDED }),
  recording_retention_days: Type.Union([Type.Integer(), Type.Null()], {
    description: RETENTION_DAYS,
  }),
  watch_notice: Type.Boolean({ description: WATCH_NOTICE }),
  notes: Type.String(),
  registry_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The registry it was installed from',
  }),
  registry_entry: Type.Union([Type.String(), Type.Null()], {
    description: 'Its name in that registry',
  }),
  created: TimestampSchema,
});
export type ImageResponse = Static<typeof ImageSchema>;

export const ImageEnvelopeSchema = Type.Object({ image: ImageSchema });
export const ImagesSchema = Type.Object({ images: Type.Array(ImageSchema) });

export const TargetImageBodySchema = Type.Object({
  target_image: Type.Object({ image_id: IdSchema }),
});

/** Checked further by profilePathProblems (placeholders), which a pattern cannot express readably. */
export const ProfilePathSchema = Type.String({
  maxLength: 1024,
  description:
    'Absolute path or s3:// URL with {username} or {user_id}, may use {image_id}; "" for none',
});

export const UpdateImageBodySchema = Type.Object({
  target_image: Type.Object({
    image_id: IdSchema,
    enabled: Type.Optional(Type.Boolean()),
    friendly_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' })),
    cores: Type.Optional(Type.Number({ minimum: CORES_MIN, maximum: CORES_MAX })),
    memory: Type.Optional(
      Type.Integer({ minimum: MEMORY_MIN_BYTES, maximum: MEMORY_MAX_BYTES, description: 'Bytes' }),
    ),
    persistent_profile_path: Type.Optional(ProfilePathSchema),
    allow_root_exec: Type.Optional(Type.Boolean({ description: ALLOW_ROOT_EXEC })),
    allow_plain_http: Type.Optional(Type.Boolean({ description: ALLOW_PLAIN_HTTP })),
    idle_limit_seconds: Type.Optional(Type.Union([IdleLimitSchema, Type.Null()])),
    idle_action: Type.Optional(IdleActionSchema),
    allow_kasm_uploads: Type.Optional(Type.Boolean({ description: ALLOW_UPLOADS })),
    allow_kasm_downloads: Type.Optional(Type.Boolean({ description: ALLOW_DOWNLOADS })),
    max_upload_bytes: Type.Optional(Type.Union([MaxUploadSchema, Type.Null()])),
    allow_kasm_clipboard_up: Type.Optional(Type.Boolean({ description: ALLOW_CLIPBOARD_UP })),
    allow_kasm_clipboard_down: Type.Optional(Type.Boolean({ description: ALLOW_CLIPBOARD_DOWN })),
    max_clipboard_bytes: Type.Optional(Type.Union([MaxClipboardSchema, Type.Null()])),
    allow_kasm_audio: Type.Optional(Type.Boolean({ description: ALLOW_AUDIO })),
    allow_anonymous_join: Type.Optional(Type.Boolean({ description: ALLOW_ANONYMOUS_JOIN })),
    record_sessions: Type.Optional(Type.Boolean({ description: RECORD_SESSIONS })),
    record_keystrokes: Type.Optional(Type.Boolean({ description: RECORD_KEYSTROKES })),
    refuse_unrecorded: Type.Optional(Type.Boolean({ description: REFUSE_UNRECORDED })),
    recording_retention_days: Type.Optional(Type.Union([RetentionDaysSchema, Type.Null()])),
    watch_notice: Type.Optional(Type.Boolean({ description: WATCH_NOTICE })),
  }),
});
export type UpdateImageInput = Static<typeof UpdateImageBodySchema>['target_image'];

export const CheckAccessBodySchema = Type.Object({
  target_user: TargetUserSchema,
  target_image: Type.Object({ image_id: IdSchema }),
});

export const AccessSchema = Type.Object({
  allowed: Type.Boolean(),
  reason: Type.String(),
  groups: Type.Array(Type.Object({ group_id: Type.String(), name: Type.String() }), {
    description: "The user's groups that allow the workspace",
  }),
});
