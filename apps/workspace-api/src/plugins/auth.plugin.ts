import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  type ApiKeyRow,
  type ApiKeysService,
  denialReason,
  type Permission,
  takeCredentials,
} from '../api-keys';
import { CredentialsInvalidError, CredentialsMissingError, ForbiddenError } from '../errors';
import { API_KEY_THROTTLE } from './auth-throttle';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission an operation needs; routes without one need no API key. */
    permission?: Permission;
  }
  interface FastifyRequest {
    apiKey: ApiKeyRow | null;
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

    async function authorize(request: FastifyRequest, reply: FastifyReply, permission: Permission) {
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
      // Set before the check: a refusal is recorded against the key that was refused (audit/).
      request.apiKey = apiKey;
      const denied = denialReason(apiKey, permission);
      if (denied) throw new ForbiddenError(denied);
    }

    // Each operation gets its hook as it is registered, its permission known from then on: no
    // request reads `request.routeOptions`, which builds a new object at every read. Route hooks
    // run after the instance's, so the input guard has seen the body first.
    app.addHook('onRoute', (route) => {
      const permission = route.config?.permission;
      const hook = async (request: FastifyRequest, reply: FastifyReply) => {
        // Kasm clients may POST without a body when credentials travel in headers.
        request.body ??= {};
        if (permission) await authorize(request, reply, permission);
      };
      route.preValidation = [hook, ...[route.preValidation ?? []].flat()];
    });
  },
  { name: 'auth', dependencies: ['auth-throttle'] },
);
