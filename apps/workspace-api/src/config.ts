import { Type, type Static } from '@sinclair/typebox';
import { parseEnv } from '@platform/schemas';

export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  DATABASE_URL: Type.String({ minLength: 1, description: 'postgres:// connection string' }),
  DATABASE_SCHEMA: Type.String({ pattern: '^[a-z_][a-z0-9_]*$', default: 'workspace' }),
  DATABASE_POOL_MAX: Type.Integer({ minimum: 1, default: 10 }),
  DATABASE_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 5000 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  BCRYPT_COST: Type.Integer({ minimum: 4, maximum: 15, default: 12 }),
  MAX_FAILED_LOGINS: Type.Integer({ minimum: 1, default: 5 }),
  SESSION_TTL_HOURS: Type.Integer({ minimum: 1, default: 12 }),
});
export type Config = Static<typeof ConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseEnv(ConfigSchema, env);
}
