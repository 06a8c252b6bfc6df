import Ajv, { type Options as AjvOptions } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifyServerOptions } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';

export interface HttpOptions {
  logLevel: string;
  bodyLimitBytes: number;
  /** Where log lines go; tests pass a stream to capture them. */
  logStream?: NodeJS.WritableStream;
}

const COMMON_AJV: AjvOptions = {
  allErrors: true,
  removeAdditional: true,
  useDefaults: true,
  strict: false,
};

function createAjv(coerceTypes: AjvOptions['coerceTypes']) {
  const ajv = new Ajv({ ...COMMON_AJV, coerceTypes });
  addFormats(ajv);
  return ajv;
}

// Bodies are JSON: a string where a boolean belongs is a client error, not something to coerce.
// Query strings and path parameters are always text, so those parts are coerced.
const bodyAjv = createAjv(false);
const textAjv = createAjv('array');

/** Bodies compile without type coercion, every other part of the request with it. */
export function validatorCompiler({ schema, httpPart }: FastifyRouteSchemaDef<FastifySchema>) {
  return (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
}

/**
 * Credentials never written to logs. Fastify's request serializer already leaves out headers
 * and bodies; these paths cover anything that logs them explicitly.
 */
export const REDACTED_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers["api-key-secret"]',
  'password',
  'api_key_secret',
  '*.password',
  '*.api_key_secret',
];

/** Fastify options shared by every service: logger with redaction, limits. Pair with `validatorCompiler`. */
export function fastifyOptions(options: HttpOptions): FastifyServerOptions {
  return {
    logger: {
      level: options.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: options.bodyLimitBytes,
    requestTimeout: 30_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  };
}
