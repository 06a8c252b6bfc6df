import type { FastifyReply } from 'fastify';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_PREFIX, BEARER_SECURITY, errorResponses, writeErrorResponses } from '../api';
import type { EventRow } from './event-row';
import { etagOf, toEventResponse } from './event-response';
import {
  EventPatchBodySchema,
  EventSchema,
  IdParamsSchema,
  NewEventBodySchema,
} from './events.schemas';
import type { EventsService } from './events.service';

const tags = ['events'];
const security = BEARER_SECURITY;
const ifMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      maxLength: 1024,
      description: 'The ETag last read; 412 when the event has changed since',
    }),
  ),
});

/** The event as answered, with its ETag for a later If-Match. */
function withEtag(reply: FastifyReply, event: EventRow) {
  reply.header('etag', etagOf(event));
  return toEventResponse(event);
}

/** Single events: add one, and read, change or delete one by id. */
export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (
  app,
  { events },
) => {
  app.post(
    '/add_event',
    {
      schema: {
        tags,
        security,
        summary: 'Add one event',
        body: NewEventBodySchema,
        response: { 201: EventSchema, ...writeErrorResponses() },
      },
    },
    async (request, reply) => {
      const event = await events.create(request.body);
      reply.status(201).header('location', `${API_PREFIX}/event/${event.id}`);
      return withEtag(reply, event);
    },
  );

  app.get(
    '/event/:id',
    {
      schema: {
        tags,
        summary: 'One event, with its ETag',
        params: IdParamsSchema,
        response: { 200: EventSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      return withEtag(reply, await events.get(request.params.id));
    },
  );

  app.patch(
    '/event/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change the fields present; honours If-Match',
        params: IdParamsSchema,
        headers: ifMatchHeaders,
        body: EventPatchBodySchema,
        response: { 200: EventSchema, ...writeErrorResponses(404, 412) },
      },
    },
    async (request, reply) => {
      const event = await events.update(
        request.params.id,
        request.body,
        request.headers['if-match'],
      );
      return withEtag(reply, event);
    },
  );

  app.delete(
    '/event/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete one event; honours If-Match; answers the deleted event',
        params: IdParamsSchema,
        headers: ifMatchHeaders,
        response: { 200: EventSchema, ...errorResponses(404, 412) },
      },
    },
    async (request) =>
      toEventResponse(await events.remove(request.params.id, request.headers['if-match'])),
  );
};
