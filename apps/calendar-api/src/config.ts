import { Type, type Static } from '@sinclair/typebox';
import { parseEnv, serviceEnv } from '@platform/schemas';

export const ConfigSchema = Type.Object({
  ...serviceEnv({ port: 3002, schema: 'calendar' }),
});
export type Config = Static<typeof ConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseEnv(ConfigSchema, env);
}
