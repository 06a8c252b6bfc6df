import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import { LAUNCH_PHASES } from './launch-timeline';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

export const EnvironmentSchema = Type.Record(
  Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,254}$' }),
  Type.String({ maxLength: 32_768 }),
  { maxProperties: 200, description: 'Environment variables for the session (name → value)' },
);

export const RequestKasmBodySchema = Type.Object({
  user_id: IdSchema,
  image_id: Type.Optional(
    Type.Union([IdSchema, Type.Null()], {
      description: "Absent: the user's default_image attribute",
    }),
  ),
  zone_id: Type.Optional(IdSchema),
  environment: Type.Optional(Type.Union([EnvironmentSchema, Type.Null()])),
  kasm_url: Nullable(
    Type.String({
      maxLength: 2048,
      description: 'Where a browser inside the session should go (KASM_URL)',
    }),
  ),
  enable_sharing: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      description:
        'True: the session gets a share_id that join_kasm takes (docs/sharing.md); never handed a staged session',
    }),
  ),
});
export type RequestKasmBody = Static<typeof RequestKasmBodySchema>;

export const UserIdBodySchema = Type.Object({ user_id: IdSchema });

export const KasmIdBodySchema = Type.Object({
  kasm_id: IdSchema,
  user_id: Type.Optional(IdSchema),
});
export type KasmIdBody = Static<typeof KasmIdBodySchema>;

export const ExecCommandBodySchema = Type.Object({
  kasm_id: IdSchema,
  user_id: Type.Optional(IdSchema),
  exec_config: Type.Object({
    cmd: Type.String({ minLength: 1, maxLength: 65_536, description: 'Run with /bin/sh -c' }),
    environment: Type.Optional(Type.Union([EnvironmentSchema, Type.Null()])),
    workdir: Nullable(Type.String({ maxLength: 1024 })),
    user: Nullable(Type.String({ maxLength: 255 })),
    privileged: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  }),
});
export type ExecCommandBody = Static<typeof ExecCommandBodySchema>;

export const KasmSchema = Type.Object({
  kasm_id: Type.String(),
  user_id: Type.String(),
  username: Type.String(),
  image_id: Type.String(),
  image: Type.Object({
    image_id: Type.String(),
    name: Type.String(),
    friendly_name: Type.String(),
  }),
  operational_status: Type.String({
    description:
      'requested, provisioning, starting, running; paused (frozen) or stopped (kept, resumable); stopping, destroyed or error',
  }),
  operational_message: Type.String(),
  operational_progress: Type.Integer({ description: '0-100' }),
  server_id: Type.String({ description: 'The agent running it' }),
  hostname: Type.String({ description: "The agent's hostname" }),
  zone_name: Type.String(),
  container_id: Type.Union([Type.String(), Type.Null()]),
  cores: Type.Number(),
  memory: Type.Integer({ description: 'Bytes' }),
  start_date: TimestampSchema,
  keepalive_date: TimestampSchema,
  expiration_date: TimestampSchema,
  created_date: TimestampSchema,
});
export type KasmResponse = Static<typeof KasmSchema>;

export const RequestKasmResponseSchema = Type.Object({
  kasm_id: Type.String(),
  status: Type.String(),
  user_id: Type.String(),
  username: Type.String(),
  session_token: Type.String({
    description: 'Admits a browser to the session; also inside kasm_url',
  }),
  kasm_url: Type.String(),
  share_id: Type.Union([Type.String(), Type.Null()], {
    description: 'With enable_sharing: the id join_kasm takes; null otherwise',
  }),
});

const LaunchPhaseSchema = Type.Object({
  phase: Type.Union(
    LAUNCH_PHASES.map((phase) => Type.Literal(phase)),
    {
      description:
        'pull (the image), create (the container), start (it and its start-up commands), ready (until it answers)',
    },
  ),
  started_at: Type.String({ format: 'date-time' }),
  ended_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Null while the phase runs',
  }),
});

export const KasmStatusSchema = Type.Object({
  kasm: KasmSchema,
  kasm_id: Type.String(),
  status: Type.String(),
  operational_status: Type.String(),
  operational_message: Type.String(),
  operational_progress: Type.Integer(),
  launch_timeline: Type.Array(LaunchPhaseSchema, {
    description: 'When each phase of the launch began and ended; empty before it begins',
  }),
  kasm_url: Type.Union([Type.String(), Type.Null()], {
    description:
      'A fresh link for live sessions (the previous one stops working) when the key holds users.auth_session; null otherwise',
  }),
  share_id: Type.Union([Type.String(), Type.Null()], {
    description: "The session's share_id (request_kasm with enable_sharing); null otherwise",
  }),
  current_time: Type.String(),
});
export type KasmStatus = Static<typeof KasmStatusSchema>;

export const KasmsSchema = Type.Object({
  kasms: Type.Array(KasmSchema),
  current_time: Type.String(),
});
export const ScreenshotBodySchema = Type.Object({
  kasm_id: IdSchema,
  user_id: Type.Optional(IdSchema),
  width: Type.Optional(
    Type.Integer({
      minimum: 16,
      maximum: 7680,
      description: "The image's width in pixels, its height in proportion; absent: the screen's",
    }),
  ),
});

/** get_kasm_screenshot's answer: a JPEG body, which the serializer passes through untouched. */
export const JpegSchema = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: 'image/jpeg: the session screen',
});

/** What stop_kasm, pause_kasm and resume_kasm answer: the session as it is afterwards. */
export const KasmEnvelopeSchema = Type.Object({ kasm: KasmSchema, current_time: Type.String() });

export const KeepaliveSchema = Type.Object({
  usage_reached: Type.Boolean({ description: 'True once the session time limit caps the expiry' }),
  expiration_date: TimestampSchema,
});
export const ExecResultSchema = Type.Object({
  kasm: KasmSchema,
  kasm_id: Type.String(),
  exit_code: Type.Integer(),
  output: Type.String({ description: 'stdout and stderr, at most 1 MiB' }),
  current_time: Type.String(),
});
