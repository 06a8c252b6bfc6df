import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_PREFIX, errorResponses } from '../api';
import {
  ListQuerySchema,
  NextDayQuerySchema,
  RangeQuerySchema,
  nextPageLink,
} from './event-queries.schemas';
import type { EventQueriesService } from './event-queries.service';
import { toEventResponse } from './event-response';
import type { EventRow } from './event-row';
import { DateParamsSchema, EventListSchema, TypeParamsSchema } from './events.schemas';

const tags = ['events'];
const response = { 200: EventListSchema, ...errorResponses() };
const wire = (rows: EventRow[]) => rows.map(toEventResponse);

/** Every read that answers a list of events, ordered by date, then id. */
export const eventQueriesRoutes: FastifyPluginAsyncTypebox<{
  queries: EventQueriesService;
}> = async (app, { queries }) => {
  app.get(
    '/events',
    {
      schema: {
        tags,
        summary: 'Events by type, period and dates; a Link rel="next" header when more remain',
        querystring: ListQuerySchema,
        response,
      },
    },
    async (request, reply) => {
      const page = await queries.page(request.query);
      if (page.next !== null) {
        reply.header('link', nextPageLink(`${API_PREFIX}/events`, request.query, page.next));
      }
      return wire(page.events);
    },
  );

  app.get(
    '/events/range',
    {
      schema: {
        tags,
        summary: 'Events from start to end, both inclusive',
        querystring: RangeQuerySchema,
        response,
      },
    },
    async (request) => wire(await queries.range(request.query.start, request.query.end)),
  );

  app.get(
    '/events/next-day',
    {
      schema: {
        tags,
        summary: 'Events of tomorrow in the time zone',
        querystring: NextDayQuerySchema,
        response,
      },
    },
    async (request) => wire(await queries.nextDay(request.query.tz)),
  );

  app.get(
    '/events/type/:type',
    { schema: { tags, summary: 'Events of one type', params: TypeParamsSchema, response } },
    async (request) => wire(await queries.byType(request.params.type)),
  );

  app.get(
    '/events/:date',
    { schema: { tags, summary: 'Events of one date', params: DateParamsSchema, response } },
    async (request) => wire(await queries.onDate(request.params.date)),
  );
};
