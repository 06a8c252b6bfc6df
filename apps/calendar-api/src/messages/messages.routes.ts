import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toEventResponse } from '../events';
import { BEARER_SECURITY, writeErrorResponses } from '../api';
import { AddMessageBodySchema, AddMessageResultSchema } from './messages.schemas';
import type { MessagesService } from './messages.service';

export const messagesRoutes: FastifyPluginAsyncTypebox<{ messages: MessagesService }> = async (
  app,
  { messages },
) => {
  app.post(
    '/add',
    {
      schema: {
        tags: ['messages'],
        security: BEARER_SECURITY,
        summary:
          'Turn a weekly-plan chat message into events; posting the same message again creates nothing',
        body: AddMessageBodySchema,
        response: {
          201: AddMessageResultSchema,
          200: AddMessageResultSchema,
          ...writeErrorResponses(),
        },
      },
    },
    async (request, reply) => {
      const result = await messages.ingest(request.body);
      reply.status(result.created.length > 0 ? 201 : 200);
      return {
        week_start: result.weekStart,
        created: result.created.map(toEventResponse),
        ignored_lines: result.ignoredLines,
      };
    },
  );
};
