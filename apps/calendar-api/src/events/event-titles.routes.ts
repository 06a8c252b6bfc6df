import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BEARER_SECURITY, errorResponses, writeErrorResponses } from '../api';
import { toEventResponse } from './event-response';
import {
  OnDateQuerySchema,
  TitleDeleteResultSchema,
  TitleEditBodySchema,
  TitleEditResultSchema,
  TitleParamsSchema,
} from './events.schemas';
import type { EventsService } from './events.service';

const tags = ['events'];
const security = BEARER_SECURITY;

/** By title: a multi-day line shares its title, so these act on every event with it (narrow with ?date=). */
export const eventTitlesRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (
  app,
  { events },
) => {
  app.put(
    '/edit/:title',
    {
      schema: {
        tags,
        security,
        summary: 'Rename and/or re-describe every event with this exact title',
        params: TitleParamsSchema,
        querystring: OnDateQuerySchema,
        body: TitleEditBodySchema,
        response: { 200: TitleEditResultSchema, ...writeErrorResponses(404) },
      },
    },
    async (request) => {
      const change = await events.editByTitle(
        request.params.title,
        request.query.date,
        request.body,
      );
      return { updated: change.count, events: change.events.map(toEventResponse) };
    },
  );

  app.delete(
    '/delete/:title',
    {
      schema: {
        tags,
        security,
        summary: 'Delete every event with this exact title',
        params: TitleParamsSchema,
        querystring: OnDateQuerySchema,
        response: { 200: TitleDeleteResultSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const change = await events.deleteByTitle(request.params.title, request.query.date);
      return { deleted: change.count, events: change.events.map(toEventResponse) };
    },
  );
};
