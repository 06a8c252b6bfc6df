import { Type, type Static } from '@sinclair/typebox';
import { CalendarDateSchema } from '@platform/schemas';

const title = (options: object = {}) =>
  Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '\\S',
    description: 'Trimmed when stored',
    ...options,
  });
const description = (options: object = {}) => Type.String({ maxLength: 5000, ...options });
const eventType = (options: object = {}) =>
  Type.String({
    maxLength: 64,
    pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
    description: 'Lower-case slug; the message parser produces general, check-in and grade',
    examples: ['general', 'check-in', 'grade'],
    ...options,
  });
// One nullable string rather than a union, so that a bad value yields one problem, not three.
const period = (options: object = {}) =>
  Type.Unsafe<string | null>({
    type: ['string', 'null'],
    maxLength: 32,
    examples: ['CSA', '3'],
    ...options,
  });
/** A Postgres integer: anything larger could never match and must not reach the database. */
export const MAX_EVENT_ID = 2_147_483_647;
export const EventIdSchema = Type.Integer({ minimum: 1, maximum: MAX_EVENT_ID });

export const SourceSchema = Type.Union([
  Type.Object({
    channel: Type.Union([Type.String(), Type.Null()]),
    message_id: Type.Union([Type.String(), Type.Null()]),
  }),
  Type.Null(),
]);

export const RecurrenceSchema = Type.Object(
  {
    rrule: Type.String({
      minLength: 1,
      maxLength: 500,
      pattern: '^[A-Za-z0-9=;,:]+$',
      description:
        'RFC 5545 RRULE value: FREQ=DAILY or WEEKLY, optional INTERVAL and BYDAY, and UNTIL or COUNT',
      examples: ['FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20250613', 'FREQ=DAILY;COUNT=5'],
    }),
    exdates: Type.Optional(
      Type.Array(CalendarDateSchema, {
        maxItems: 1000,
        default: [],
        description: 'Dates the rule skips (EXDATE)',
      }),
    ),
  },
  { description: 'How the event repeats; its date is the first occurrence' },
);
export type RecurrenceBody = Static<typeof RecurrenceSchema>;
const recurrence = Type.Union([RecurrenceSchema, Type.Null()]);

export const EventSchema = Type.Object({
  id: Type.Integer(),
  date: CalendarDateSchema,
  title: Type.String(),
  description: Type.String(),
  type: Type.String(),
  period: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  source: SourceSchema,
  recurrence: Type.Union([
    Type.Object({ rrule: Type.String(), exdates: Type.Array(CalendarDateSchema) }),
    Type.Null(),
  ]),
});
export type EventResponse = Static<typeof EventSchema>;
export const EventListSchema = Type.Array(EventSchema);

export const NewEventBodySchema = Type.Object({
  date: CalendarDateSchema,
  title: title(),
  description: Type.Optional(description({ default: '' })),
  type: Type.Optional(eventType({ default: 'general' })),
  period: Type.Optional(period({ default: null })),
  recurrence: Type.Optional(recurrence),
});
export type NewEventBody = Static<typeof NewEventBodySchema>;

export const EventPatchBodySchema = Type.Object(
  {
    date: Type.Optional(CalendarDateSchema),
    title: Type.Optional(title()),
    description: Type.Optional(description()),
    type: Type.Optional(eventType()),
    period: Type.Optional(period()),
    recurrence: Type.Optional(recurrence),
  },
  { description: 'The fields to change; at least one (recurrence null makes it a single event)' },
);
export type EventPatchBody = Static<typeof EventPatchBodySchema>;

export const TitleEditBodySchema = Type.Object(
  {
    newTitle: Type.Optional(title()),
    title: Type.Optional(title({ description: 'Accepted for newTitle' })),
    description: Type.Optional(description()),
  },
  { description: 'newTitle (or title) and/or description' },
);
export type TitleEditBody = Static<typeof TitleEditBodySchema>;

export const IdParamsSchema = Type.Object({ id: EventIdSchema });
export const DateParamsSchema = Type.Object({ date: CalendarDateSchema });
export const TypeParamsSchema = Type.Object({ type: eventType() });
export const TitleParamsSchema = Type.Object({
  title: Type.String({
    minLength: 1,
    maxLength: 1000,
    description: 'The exact title, URL-encoded',
  }),
});
export const OnDateQuerySchema = Type.Object({
  date: Type.Optional(CalendarDateSchema),
});

export const TitleEditResultSchema = Type.Object({
  updated: Type.Integer(),
  events: EventListSchema,
});
export const TitleDeleteResultSchema = Type.Object({
  deleted: Type.Integer(),
  events: EventListSchema,
});
