import { Type, type Static, type TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export class ConfigError extends Error {}

/**
 * Reads a service's configuration from environment variables: converts numbers and booleans,
 * fills defaults, and fails with every problem at once. Empty strings count as unset.
 */
export function parseEnv<S extends TObject>(
  schema: S,
  env: Record<string, string | undefined>,
): Static<S> {
  const present = Object.fromEntries(
    Object.keys(schema.properties)
      .filter((key) => env[key] !== undefined && env[key] !== '')
      .map((key) => [key, env[key]]),
  );
  const value = Value.Default(schema, Value.Convert(schema, present));
  const problems = [...Value.Errors(schema, value)].map(
    (e) => `  ${e.path.slice(1) || '(root)'}: ${e.message}`,
  );
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${[...new Set(problems)].join('\n')}`);
  }
  return value as Static<S>;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The configuration every service shares: where it listens, logs and keeps its data. */
export function serviceEnv(defaults: { port: number; schema: string }) {
  return {
    PORT: Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: defaults.port,
      description: 'The port the service listens on, on 0.0.0.0',
    }),
    PUBLIC_URL: Type.String({
      pattern: '^(https?://[^\\s/?#]+(/[^\\s?#]*)?)?$',
      default: '',
      description:
        "Where clients reach the service (http(s)://host[:port][/path]), as the CLI's examples print it; empty: http://localhost:<PORT>",
    }),
    LOG_LEVEL: Type.Union(
      LOG_LEVELS.map((l) => Type.Literal(l)),
      {
        default: 'info',
        description:
          'At info one JSON line per request (reqId, method, route, status, ms); at debug also each arrival',
      },
    ),
    DATABASE_URL: Type.String({ minLength: 1, description: 'postgres:// connection string' }),
    DATABASE_SCHEMA: Type.String({
      pattern: '^[a-z_][a-z0-9_]*$',
      default: defaults.schema,
      description: 'The Postgres schema the service owns',
    }),
    DATABASE_POOL_MAX: Type.Integer({
      minimum: 1,
      default: 10,
      description: 'Database connections per process',
    }),
    DATABASE_TIMEOUT_MS: Type.Integer({
      minimum: 100,
      default: 5000,
      description: 'The longest wait for a database connection or a statement',
    }),
    BODY_LIMIT_BYTES: Type.Integer({
      minimum: 1024,
      default: 1_048_576,
      description: 'Larger request bodies get 413',
    }),
    REQUEST_TIMEOUT_MS: Type.Integer({
      minimum: 1000,
      default: 30_000,
      description:
        'The longest a request may take to arrive, body included (also an upload through the session proxy); then 408',
    }),
  };
}

/**
 * The service's address as its users reach it, for the examples the CLIs print: PUBLIC_URL when
 * set (a published port or a proxy in front), else the port it listens on, on this machine.
 */
export function publicBaseUrl(config: { PORT: number; PUBLIC_URL: string }): string {
  return config.PUBLIC_URL.replace(/\/+$/, '') || `http://localhost:${config.PORT}`;
}
