import { Type, type Static } from '@sinclair/typebox';
import { parseEnv, serviceEnv } from '@platform/schemas';

export const ConfigSchema = Type.Object({
  ...serviceEnv({ port: 3001, schema: 'workspace' }),
  BCRYPT_COST: Type.Integer({ minimum: 4, maximum: 15, default: 12 }),
  MAX_FAILED_LOGINS: Type.Integer({ minimum: 1, default: 5 }),
  SESSION_TTL_HOURS: Type.Integer({ minimum: 1, default: 12 }),
});
export type Config = Static<typeof ConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseEnv(ConfigSchema, env);
}
