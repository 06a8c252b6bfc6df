import type { FastifyReply } from 'fastify';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '@platform/schemas';
import { FeedNotFoundError } from '../errors';
import { errorResponses } from '../api';
import { ifNoneMatchHits } from './calendar-feed';
import { feedQueryOf, type FeedAddressesService } from './feed-addresses.service';
import type { FeedQuery, FeedService } from './feed.service';

/** The throttle rule counting wrong feed secrets per client address, as wrong tokens are. */
export const FEED_SECRET_THROTTLE = 'feed-secret';

const FeedQuerySchema = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 64, description: 'Only events of this type' })),
  period: Type.Optional(Type.String({ maxLength: 32, description: 'Only events of this period' })),
});
const PrivateFeedQuerySchema = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: 256,
    description: "The feed address's secret (calfeed_…), from POST /feeds or `feed create`",
  }),
});
const ConditionalHeadersSchema = Type.Object({
  'if-none-match': Type.Optional(Type.String({ maxLength: 1024 })),
});
const feedResponse = {
  200: { description: 'The calendar', content: { 'text/calendar': { schema: Type.String() } } },
  304: { description: 'Unchanged since the ETag in If-None-Match', type: 'null' },
} as const;

/**
 * Both addresses answer the same calendar the same way. A secret address is a credential:
 * `private` keeps shared caches from storing it, and neither search engines nor the pages a
 * calendar app links to should learn it.
 */
async function sendFeed(
  feed: FeedService,
  query: FeedQuery,
  ifNoneMatch: string | undefined,
  reply: FastifyReply,
  secret: boolean,
) {
  const { body, etag } = await feed.render(query);
  reply.header('etag', etag).header('cache-control', secret ? 'private, no-cache' : 'no-cache');
  if (secret) reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex');
  if (ifNoneMatchHits(ifNoneMatch, etag)) return reply.status(304).send();
  return reply
    .type('text/calendar; charset=utf-8')
    .header('content-disposition', 'inline; filename="calendar.ics"')
    .send(body);
}

export const feedRoutes: FastifyPluginAsyncTypebox<{
  feed: FeedService;
  addresses: FeedAddressesService;
}> = async (app, { feed, addresses }) => {
  app.get(
    '/calendar.ics',
    {
      schema: {
        tags: ['feed'],
        summary:
          'iCalendar (RFC 5545) feed of all-day events, to subscribe to from Google, Apple or Outlook calendars',
        querystring: FeedQuerySchema,
        headers: ConditionalHeadersSchema,
        response: { ...feedResponse, ...errorResponses() },
      },
    },
    (request, reply) =>
      sendFeed(feed, request.query, request.headers['if-none-match'], reply, false),
  );

  // The secret travels in the query string: request logs replace a `token` parameter's value,
  // where a path segment would be written out.
  app.get(
    '/private.ics',
    {
      // The secret is the credential: calendar apps cannot send a bearer token.
      config: { auth: false },
      schema: {
        tags: ['feed'],
        summary:
          'The feed at a secret address, for calendar apps when reads need a token (CALENDAR_AUTH=all); 404 for a wrong or rotated secret',
        querystring: PrivateFeedQuerySchema,
        headers: ConditionalHeadersSchema,
        response: { ...feedResponse, ...problemResponses(400, 404, 429, 503) },
      },
    },
    async (request, reply) => {
      const { token } = request.query;
      const address = await app.authThrottle.guard(
        FEED_SECRET_THROTTLE,
        request,
        token,
        () => addresses.open(token),
        (error) => error instanceof FeedNotFoundError,
      );
      return sendFeed(feed, feedQueryOf(address), request.headers['if-none-match'], reply, true);
    },
  );
};
