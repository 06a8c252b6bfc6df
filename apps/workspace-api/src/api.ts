import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, problemResponses } from '@platform/schemas';

// What every operation of the API shares: its prefix, error responses, security, target_user.

/** Every operation's base path; the name after it is the Kasm operation name. */
export const API_PREFIX = '/api/public';

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
