import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { toUuid } from '@platform/schemas';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../operations';
import {
  ApiKeySchema,
  CreateApiKeyBodySchema,
  IssuedApiKeySchema,
  RevokeApiKeyBodySchema,
  toApiKeyResponse,
} from './api-keys.schemas';
import type { ApiKeysService } from './api-keys.service';

const tags = ['api keys'];
const security = API_KEY_SECURITY;

export const apiKeysRoutes: FastifyPluginAsyncTypebox<{ apiKeys: ApiKeysService }> = async (
  app,
  { apiKeys },
) => {
  app.post(
    '/create_api_key',
    {
      config: { permission: 'api_keys.modify' },
      schema: {
        tags,
        security,
        summary: 'Issue an API key; the secret is in this response only',
        body: CreateApiKeyBodySchema,
        response: { 200: IssuedApiKeySchema, ...errorResponses() },
      },
    },
    async (request) => {
      const { name, permissions, read_only: readOnly, expires } = request.body;
      const issued = await apiKeys.issue({
        name,
        permissions,
        readOnly,
        expiresAt: expires ? new Date(expires) : null,
      });
      return { api_key: toApiKeyResponse(issued.apiKey), api_key_secret: issued.secret };
    },
  );

  app.post(
    '/get_api_keys',
    {
      config: { permission: 'api_keys.modify' },
      schema: {
        tags,
        security,
        summary: 'List API keys (never their secrets)',
        response: { 200: Type.Object({ api_keys: Type.Array(ApiKeySchema) }), ...errorResponses() },
      },
    },
    async () => ({ api_keys: (await apiKeys.list()).map(toApiKeyResponse) }),
  );

  app.post(
    '/revoke_api_key',
    {
      config: { permission: 'api_keys.modify' },
      schema: {
        tags,
        security,
        summary: 'Revoke an API key; takes effect on the next request',
        body: RevokeApiKeyBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await apiKeys.revoke({ id: toUuid(request.body.api_key_id) });
      return {};
    },
  );
};
