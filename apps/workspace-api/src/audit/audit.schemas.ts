import { Type, type Static } from '@sinclair/typebox';
import { TimestampSchema } from '@platform/schemas';

export const AUDIT_CHANNELS = [
  'api',
  'console',
  'settings-file',
  'cli',
  'session',
  'sso',
  'web',
] as const;
export const AUDIT_RESULTS = ['success', 'denied', 'failed'] as const;
export const ACTOR_KINDS = ['api_key', 'user', 'system'] as const;

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));

const Snapshot = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
  description: 'The target as its read operation shows it, secrets redacted; null when none',
});

export const AuditEventSchema = Type.Object({
  event_id: Type.String(),
  created: TimestampSchema,
  actor: Type.Object({
    kind: literals(ACTOR_KINDS),
    id: Type.Union([Type.String(), Type.Null()], {
      description: 'api_key_id or user_id; null for system',
    }),
    name: Type.Union([Type.String(), Type.Null()], {
      description: "the key's name, the user's username, or what ran (settings apply)",
    }),
  }),
  channel: literals(AUDIT_CHANNELS),
  operation: Type.String({ description: 'The operation name, e.g. update_user' }),
  target: Type.Union([
    Type.Object({ type: Type.String(), id: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ]),
  client_ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  result: literals(AUDIT_RESULTS),
  status: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status answered' }),
  error_code: Type.Union([Type.String(), Type.Null()]),
  before: Snapshot,
  after: Snapshot,
});
export type AuditEventResponse = Static<typeof AuditEventSchema>;

const Filter = (description: string, maxLength = 255) =>
  Type.Optional(Type.String({ minLength: 1, maxLength, description }));

/** The filters all hold together; newest first; paged as get_users is (page or keyset cursor). */
export const GetAuditLogBodySchema = Type.Object({
  actor_kind: Type.Optional(literals(ACTOR_KINDS)),
  actor_id: Filter('api_key_id or user_id'),
  operation: Filter('An operation name, e.g. update_user', 64),
  target_type: Filter(
    'user, group, image, agent, zone, file_mapping, registry, api_key, session…',
    32,
  ),
  target_id: Filter('The target id (needs no target_type, though ids are unique per type only)'),
  channel: Type.Optional(literals(AUDIT_CHANNELS)),
  result: Type.Optional(literals(AUDIT_RESULTS)),
  since: Type.Optional(Type.String({ format: 'date-time', description: 'Inclusive' })),
  until: Type.Optional(Type.String({ format: 'date-time', description: 'Exclusive' })),
  page: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 0,
    description: '0-based page number (ignored with cursor)',
  }),
  page_size: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  cursor: Type.Optional(
    Type.String({
      maxLength: 256,
      description: 'next_cursor of the previous page (keyset paging; page is ignored)',
    }),
  ),
});
export type GetAuditLogBody = Static<typeof GetAuditLogBodySchema>;

export const AuditLogPageSchema = Type.Object({
  events: Type.Array(AuditEventSchema),
  total: Type.Integer({ description: 'Events matching the filters' }),
  page: Type.Integer(),
  page_size: Type.Integer(),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'null on the last page',
  }),
});
