import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { IdSchema, problemResponses } from '@platform/schemas';

// What every operation of the API shares: its prefix, error responses, security, target_user.

/** Every operation's base path; the name after it is the Kasm operation name. */
export const API_PREFIX = '/api/public';
/** Kasm serves its operations here too, and some of its clients call them here. */
export const ADMIN_API_PREFIX = '/api/admin';

/**
 * `operations` once more, for another prefix: the same routes with the same hooks, only the path
 * differs. Left out of the OpenAPI document and the schema fuzzing, which cover them once, under
 * API_PREFIX. The flag goes on the route's own schema object, which the document and the
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

export const UsernameSchema = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '\\S',
  description: 'Trimmed and lower-cased when stored',
});

/** How every operation names its user, as get_user does: by user_id, else by username. */
export const TargetUserSchema = Type.Object(
  { user_id: Type.Optional(IdSchema), username: Type.Optional(UsernameSchema) },
  { description: 'user_id or username' },
);
export type TargetUser = Static<typeof TargetUserSchema>;

export const TargetUserBodySchema = Type.Object({ target_user: TargetUserSchema });
export type TargetUserBody = Static<typeof TargetUserBodySchema>;

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

/** The OpenAPI document's header (served at /docs). */
export const API_DOCS = {
  title: 'workspace-api',
  description:
    'Control plane of the workspace platform; wire-compatible with the Kasm Workspaces developer API.',
  version: '0.1.0',
  securitySchemes: SECURITY_SCHEMES,
};
