import { createServer, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Ajv, { type Options as AjvOptions, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyRequest, FastifySchema, FastifyServerOptions } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { sendProblem, toProblem } from '@platform/errors';
import { asyncStdout, loggableUrl, REDACTED_PATHS, RequestLineController } from './request-log';
import type { TrustProxy } from './trust-proxy';

export interface HttpOptions {
  logLevel: string;
  bodyLimitBytes: number;
  /** Where log lines go; tests pass a stream to capture them. */
  logStream?: NodeJS.WritableStream;
  /** Whose X-Forwarded-For to believe for `request.ip` (see `parseTrustProxy`). */
  trustProxy?: TrustProxy;
  /** The longest a request (line, headers and body) may take to arrive; 30 s unless set. */
  requestTimeoutMs?: number;
}

/**
 * The HTTP server with its request timeout set where Node applies it. Fastify sets
 * `server.requestTimeout` after construction, where Node 20 ignores it while `headersTimeout`
 * (60 s by default) is longer: a client could then trickle a body for ever. Node checks its
 * timeouts every `connectionsCheckingInterval` (30 s by default): a quarter of the timeout here.
 */
function serverWithTimeouts(requestTimeoutMs: number) {
  return (handler: Parameters<typeof createServer>[1]) =>
    createServer(
      {
        requestTimeout: requestTimeoutMs,
        headersTimeout: Math.min(60_000, requestTimeoutMs),
        connectionsCheckingInterval: Math.max(100, Math.min(30_000, requestTimeoutMs / 4)),
      },
      handler,
    );
}

const COMMON_AJV: AjvOptions = {
  allErrors: true,
  // Each problem carries the schema that failed, so that describeIssues can say it in words.
  verbose: true,
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

/**
 * Bodies compile without type coercion, every other part of the request with it. Text the
 * database cannot store (NUL, lone surrogates) is the input guard's to refuse, before validation.
 *
 * Each validator is compiled on its first use, not when the app starts: compiling every route's
 * schemas took about a second of CPU per start of workspace-api (what each test file paid), and
 * a route pays its few milliseconds once, on its first request. Fastify reads `errors` after a
 * failed validation.
 */
export function validatorCompiler({ schema, httpPart }: FastifyRouteSchemaDef<FastifySchema>) {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  let compiled: ValidateFunction | undefined;
  const validate = (data: unknown) => (compiled ??= ajv.compile(schema as object))(data);
  return Object.defineProperty(validate, 'errors', { get: () => compiled?.errors });
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request took too long to arrive',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'HEADERS_TOO_LARGE',
    message: 'The request line or headers are too large',
  },
};

/**
 * Requests Node's HTTP parser rejects never reach Fastify (malformed request line, headers too
 * large, too slow): they get the same problem+json body as everything else, on the raw socket.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''] ?? {
    status: 400,
    code: 'INVALID_REQUEST',
    message: 'The request is not valid HTTP',
  };
  const body = JSON.stringify(
    toProblem({ statusCode: known.status, code: known.code, message: known.message }),
  );
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify options shared by every service: logger with redaction, limits. Pair with `validatorCompiler`. */
export function fastifyOptions(options: HttpOptions): FastifyServerOptions {
  return {
    logger: {
      level: options.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        // Fastify's own request fields, with secrets in the query string hidden.
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: loggableUrl(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
      stream: options.logStream ?? asyncStdout(),
    },
    logController: new RequestLineController(),
    bodyLimit: options.bodyLimitBytes,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    serverFactory: serverWithTimeouts(options.requestTimeoutMs ?? 30_000),
    // problemDetailsPlugin answers requests that arrive while closing, as problem+json.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    trustProxy: options.trustProxy ?? false,
    // Bad URL encoding and over-long path parameters are answered before any route runs.
    frameworkErrors: (error, request, reply) => sendProblem(error, request, reply),
    clientErrorHandler,
  };
}
