import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { toUuid } from '@platform/schemas';
import { CredentialsMissingError } from '../errors';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
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
      config: { permission: 'api_keys.modify', audit: 'api_key', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Issue an API key; the secret is in this response only',
        description:
          'A key grants only permissions it holds (global_admin holds all); a read-only key issues only read-only keys; a key that expires issues only keys that expire no later. Otherwise 403 FORBIDDEN naming what it lacks.',
        body: CreateApiKeyBodySchema,
        response: { 200: IssuedApiKeySchema, ...errorResponses() },
      },
    },
    async (request) => {
      const { name, permissions, read_only: readOnly, expires } = request.body;
      // The auth hook has set the caller's key; without one nothing is issued unchecked.
      if (!request.apiKey) throw new CredentialsMissingError();
      const expiresAt = expires ? new Date(expires) : null;
      const issued = await apiKeys.issue(
        { name, permissions, readOnly, expiresAt },
        request.apiKey,
        request.audit,
      );
      return { api_key: toApiKeyResponse(issued.apiKey), api_key_secret: issued.secret };
    },
  );

  app.post(
    '/get_api_keys',
    {
      config: { permission: 'api_keys.modify', audit: false },
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
      config: { permission: 'api_keys.modify', audit: 'api_key', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Revoke an API key; takes effect on the next request',
        body: RevokeApiKeyBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
        description: 'A key may revoke only keys holding no permission it lacks.',
      },
    },
    async (request) => {
      if (!request.apiKey) throw new CredentialsMissingError();
      await apiKeys.revoke({ id: toUuid(request.body.api_key_id) }, request.apiKey, request.audit);
      return {};
    },
  );
};
