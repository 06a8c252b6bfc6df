import type { Static, TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export class ConfigError extends Error {}

/**
 * Reads a service's configuration from environment variables: converts numbers and booleans,
 * fills defaults, and fails with every problem at once. Empty strings count as unset.
 */
export function parseEnv<S extends TObject>(schema: S, env: Record<string, string | undefined>): Static<S> {
  const present = Object.fromEntries(
    Object.keys(schema.properties)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const value = Value.Default(schema, Value.Convert(schema, present));
  const problems = [...Value.Errors(schema, value)].map((e) => `  ${e.path.slice(1) || '(root)'}: ${e.message}`);
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${[...new Set(problems)].join('\n')}`);
  }
  return value as Static<S>;
}
