import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiKeysService } from '../api-keys/api-keys.service';
import { takeCredentials } from '../api-keys/credentials';
import { denialReason, type Permission } from '../api-keys/permissions';
import { CredentialsInvalidError, CredentialsMissingError, ForbiddenError } from '../errors';
import type { ApiKey } from '../generated/prisma/client';
import { API_KEY_THROTTLE } from './auth-throttle';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission an operation needs; routes without one need no API key. */
    permission?: Permission;
  }
  interface FastifyRequest {
    apiKey: ApiKey | null;
  }
}

/**
 * Authenticates and authorizes every operation that declares a permission. Runs before body
 * validation, so that callers without valid credentials learn nothing about the schemas, and
 * strips credential fields from the body before anything else sees it. A request without a
 * body gets an empty one.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, { apiKeys }: { apiKeys: ApiKeysService }) => {
    app.decorateRequest('apiKey', null);
    app.addHook('preValidation', async (request: FastifyRequest, reply) => {
      // Kasm clients may POST without a body when credentials travel in headers.
      request.body ??= {};
      const permission = request.routeOptions.config.permission;
      if (!permission) return;
      const credentials = takeCredentials(request);
      if (!credentials) {
        reply.header('www-authenticate', 'Basic realm="workspace-api"');
        throw new CredentialsMissingError();
      }
      // A client that sent wrong credentials too often is refused before its next guess is checked.
      const apiKey = await app.authThrottle.guard(
        API_KEY_THROTTLE,
        request,
        credentials.key,
        () => apiKeys.verify(credentials),
        (error) => error instanceof CredentialsInvalidError,
      );
      const denied = denialReason(apiKey, permission);
      if (denied) throw new ForbiddenError(denied);
      request.apiKey = apiKey;
    });
  },
  { name: 'auth', dependencies: ['auth-throttle'] },
);
