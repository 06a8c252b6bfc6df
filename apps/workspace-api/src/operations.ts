import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { problemResponses } from '@platform/schemas';

/** Every operation's base path; the name after it is the Kasm operation name. */
export const OPERATIONS_PREFIX = '/api/public';
/** Kasm serves its operations here too, and some of its clients call them here. */
export const ADMIN_OPERATIONS_PREFIX = '/api/admin';

/**
 * `operations` once more, for another prefix: the same routes with the same hooks, only the path
 * differs. Left out of the OpenAPI document and the schema fuzzing, which cover them once, under
 * OPERATIONS_PREFIX. The flag goes on the route's own schema object, which the document and the
 * route catalog already hold (their onRoute hooks, the root's, ran first); each registration of a
 * routes plugin builds its own.
 */
export function undocumentedAlias(operations: FastifyPluginAsync): FastifyPluginAsync {
  return async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.schema = Object.assign(route.schema ?? {}, { hide: true });
    });
    await scope.register(operations);
  };
}

/** The errors any authenticated operation can answer (429: too many wrong credentials), plus the ones it names. */
export function errorResponses(...statuses: number[]) {
  return problemResponses(400, 401, 403, 413, 415, 429, 503, ...statuses);
}

/** A successful delete or action with nothing to return answers `{}`. */
export const EmptySchema = Type.Object({});

/** Documented on every operation: the three accepted ways to pass API credentials. */
export const API_KEY_SECURITY: Record<string, string[]>[] = [
  { apiKey: [], apiKeySecret: [] },
  { basicAuth: [] },
];

export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'api-key',
    description:
      'With api-key-secret; or the body fields api_key and api_key_secret, as Kasm clients send them',
  },
  apiKeySecret: { type: 'apiKey', in: 'header', name: 'api-key-secret' },
  basicAuth: { type: 'http', scheme: 'basic', description: 'api_key:api_key_secret' },
} as const;
