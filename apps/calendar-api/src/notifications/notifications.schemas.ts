import { Type, type Static } from '@sinclair/typebox';
import { TimestampSchema } from '@platform/schemas';

export const NOTIFICATION_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const NotificationsQuerySchema = Type.Object({
  status: Type.Optional(
    Type.Union(
      NOTIFICATION_STATUSES.map((s) => Type.Literal(s)),
      { description: 'Only notifications in this state' },
    ),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  before_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'The last id of the previous page (ids decrease: newest first)',
    }),
  ),
});
export type NotificationsQuery = Static<typeof NotificationsQuerySchema>;

const NotifiedEventSchema = Type.Object({
  id: Type.Integer(),
  date: Type.String({ format: 'date' }),
  title: Type.String(),
  type: Type.String(),
  period: Type.Union([Type.String(), Type.Null()]),
  changes: Type.Optional(
    Type.Array(
      Type.Object({
        field: Type.String({ examples: ['title', 'date', 'description'] }),
        was: Type.String(),
        now: Type.String(),
      }),
      { description: "An edit's changes to title, date and description (only those that changed)" },
    ),
  ),
});

export const NotificationSchema = Type.Object({
  id: Type.Integer(),
  target: Type.String({ description: "The target's name in NOTIFY_WEBHOOKS" }),
  action: Type.String({
    examples: ['created', 'replaced', 'updated', 'deleted', 'digest', 'reminder'],
  }),
  status: Type.String({ examples: [...NOTIFICATION_STATUSES] }),
  attempts: Type.Integer(),
  text: Type.String({ description: 'The message, as plain text' }),
  events: Type.Array(NotifiedEventSchema, { description: 'The first 25 events concerned' }),
  total: Type.Integer({ description: 'How many events the change concerned' }),
  source: Type.Union([
    Type.Object({
      channel: Type.Union([Type.String(), Type.Null()]),
      message_id: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  last_status: Type.Union([Type.Integer(), Type.Null()], {
    description: 'HTTP status of the last attempt',
  }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  next_attempt_at: TimestampSchema,
  delivered_at: TimestampSchema,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type NotificationResponse = Static<typeof NotificationSchema>;
export const NotificationListSchema = Type.Array(NotificationSchema);

/** The Link header's rel="next" target: the same query, continued before `beforeId`. */
export function nextNotificationsLink(path: string, query: NotificationsQuery, beforeId: number) {
  const params = new URLSearchParams();
  if (query.status !== undefined) params.set('status', query.status);
  params.set('limit', String(query.limit));
  params.set('before_id', String(beforeId));
  return `<${path}?${params}>; rel="next"`;
}
