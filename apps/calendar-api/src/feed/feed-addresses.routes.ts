import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BEARER_SECURITY, errorResponses, writeErrorResponses } from '../api';
import {
  FeedAddressIdParamsSchema,
  FeedAddressSchema,
  IssuedFeedAddressSchema,
  NewFeedAddressBodySchema,
  toFeedAddressResponse,
  toIssuedFeedAddressResponse,
} from './feed-addresses.schemas';
import type { FeedAddressesService } from './feed-addresses.service';

const tags = ['feed'];
const security = BEARER_SECURITY;

/** Managing the feed's secret addresses: a writer's business, listing them included. */
export const feedAddressesRoutes: FastifyPluginAsyncTypebox<{
  addresses: FeedAddressesService;
  baseUrl: string;
}> = async (app, { addresses, baseUrl }) => {
  app.post(
    '/feeds',
    {
      schema: {
        tags,
        security,
        summary:
          'Issue a secret feed address (every event, or one type and/or period); its URL is shown only now',
        body: NewFeedAddressBodySchema,
        response: { 201: IssuedFeedAddressSchema, ...writeErrorResponses() },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return toIssuedFeedAddressResponse(baseUrl, await addresses.create(request.body));
    },
  );

  app.get(
    '/feeds',
    {
      config: { access: 'write' },
      schema: {
        tags,
        security,
        summary: 'Every secret feed address, without its secret (needs a write token)',
        response: { 200: Type.Array(FeedAddressSchema), ...errorResponses(403, 429) },
      },
    },
    async () => (await addresses.list()).map(toFeedAddressResponse),
  );

  app.post(
    '/feeds/:id/rotate',
    {
      schema: {
        tags,
        security,
        summary:
          'Replace the secret: the old address answers 404 from now on; the new URL is shown only now',
        params: FeedAddressIdParamsSchema,
        response: { 200: IssuedFeedAddressSchema, ...writeErrorResponses(404) },
      },
    },
    async (request) =>
      toIssuedFeedAddressResponse(baseUrl, await addresses.rotate(request.params.id)),
  );

  app.delete(
    '/feeds/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a secret feed address: it answers 404 from now on',
        params: FeedAddressIdParamsSchema,
        response: { 200: FeedAddressSchema, ...writeErrorResponses(404) },
      },
    },
    async (request) => toFeedAddressResponse(await addresses.remove(request.params.id)),
  );
};
