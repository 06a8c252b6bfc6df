import { Type, type Static } from '@sinclair/typebox';
import { CalendarDateSchema } from '@platform/schemas';
import { EventListSchema } from '../events';

/** Slack's own limit for the text of one message. */
export const MAX_MESSAGE_LENGTH = 40_000;

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 255, description });

export const AddMessageBodySchema = Type.Object({
  text: Type.String({
    maxLength: MAX_MESSAGE_LENGTH,
    description: 'The chat message (Slack mrkdwn); see the message format',
  }),
  channel: Type.Optional(Id('Chat channel id; picks the period from CHANNEL_PERIODS')),
  message_id: Type.Optional(
    Id('Identifies the message in its channel; a repost with it replaces its events'),
  ),
  ts: Type.Optional(Id("Slack's message timestamp, accepted for message_id")),
  week_start: Type.Optional(CalendarDateSchema),
  weekStartDate: Type.Optional(CalendarDateSchema),
  period: Type.Optional(
    Type.String({ maxLength: 32, description: 'Used when the channel has no configured period' }),
  ),
});
export type AddMessageBody = Static<typeof AddMessageBodySchema>;

export const AddMessageResultSchema = Type.Object({
  week_start: CalendarDateSchema,
  created: EventListSchema,
  ignored_lines: Type.Array(Type.Object({ line: Type.String(), reason: Type.String() })),
});
