import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../routes';
import { ifNoneMatchHits } from './calendar-feed';
import type { FeedService } from './feed.service';

const FeedQuerySchema = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 64, description: 'Only events of this type' })),
  period: Type.Optional(Type.String({ maxLength: 32, description: 'Only events of this period' })),
});

export const feedRoutes: FastifyPluginAsyncTypebox<{ feed: FeedService }> = async (
  app,
  { feed },
) => {
  app.get(
    '/calendar.ics',
    {
      schema: {
        tags: ['feed'],
        summary:
          'iCalendar (RFC 5545) feed of all-day events, to subscribe to from Google, Apple or Outlook calendars',
        querystring: FeedQuerySchema,
        headers: Type.Object({ 'if-none-match': Type.Optional(Type.String({ maxLength: 1024 })) }),
        response: {
          200: {
            description: 'The calendar',
            content: { 'text/calendar': { schema: Type.String() } },
          },
          304: { description: 'Unchanged since the ETag in If-None-Match', type: 'null' },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const { body, etag } = await feed.render(request.query);
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="calendar.ics"')
        .send(body);
    },
  );
};
