import type { FastifyError } from 'fastify';
import type { FieldProblem } from './define';
import { describeIssues, type SchemaIssue } from './validation-messages';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: FieldProblem[];
  error_message: string;
}

interface AdapterCause {
  kind?: string;
  code?: string;
  originalCode?: string;
}

interface ThrownError extends Partial<FastifyError> {
  errors?: FieldProblem[];
  meta?: { driverAdapterError?: { cause?: AdapterCause } };
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Fastify's own request errors, renamed to our stable codes. */
const FASTIFY_CODES: Record<string, { code: string; status: number; detail?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    status: 415,
    detail: 'The body must be JSON: send it with the header content-type: application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'INVALID_REQUEST', status: 400 },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', status: 400 },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', status: 400 },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', status: 413 },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URI_TOO_LONG', status: 414 },
  FST_ERR_BAD_URL: { code: 'INVALID_URL', status: 400 },
};

/** Postgres/pg failures that mean "the database is not reachable right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout, the database is too slow to answer in time
  'P2028', // Prisma: a transaction could not start (no connection) or outlived its time
  '08000',
  '08001',
  '08003',
  '08006',
]);

const PG_UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Query read timeout',
];
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

function problem(
  status: number,
  code: string,
  detail: string,
  errors?: FieldProblem[],
): ProblemBody {
  return {
    type: `urn:problem:${code.toLowerCase().replace(/_/g, '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(errors && errors.length > 0 ? { errors } : {}),
    error_message: detail,
  };
}

function validationProblems(error: FastifyError): FieldProblem[] {
  return describeIssues(
    (error.validation ?? []) as unknown as SchemaIssue[],
    error.validationContext ?? 'body',
  );
}

/** Made by our `createError` (Fastify's own carry FST_ codes): its message is meant for clients. */
function isDefinedError(error: ThrownError): error is ThrownError & { code: string } {
  const code = error.code;
  return error.name === 'FastifyError' && typeof code === 'string' && !code.startsWith('FST_');
}

/** The database is unreachable or overloaded right now (a 503), by any driver's report of it. */
export function isDatabaseUnavailable(thrown: unknown): boolean {
  const error = (thrown ?? {}) as ThrownError;
  if (error.name === 'PrismaClientInitializationError') return true;
  // pg reports these without a code: no free connection in time, the server closed the socket
  // (it stopped), or the server did not answer within the pool's read timeout.
  if (
    error.message !== undefined &&
    PG_UNAVAILABLE_MESSAGES.some((m) => error.message?.includes(m))
  )
    return true;
  if (typeof error.code === 'string' && UNAVAILABLE_CODES.has(error.code)) return true;
  // The driver adapter names the failure, or passes PostgreSQL's own code on (57P01 when the
  // server shuts down under a query, 57P03 while it starts or stops): inside Prisma's error, or
  // thrown bare, as it is when the server ends a connection a transaction holds.
  const cause =
    error.meta?.driverAdapterError?.cause ??
    (error.name === 'DriverAdapterError' ? (error.cause as AdapterCause | undefined) : undefined);
  const code = cause?.originalCode ?? cause?.code;
  return (
    (cause?.kind !== undefined && UNAVAILABLE_ADAPTER_KINDS.has(cause.kind)) ||
    (code !== undefined && UNAVAILABLE_CODES.has(code))
  );
}

/**
 * Maps anything thrown while handling a request to problem details. Unknown errors become a
 * generic 500: their message may hold driver or internal details and is never sent.
 */
export function toProblem(thrown: unknown): ProblemBody {
  const error = (thrown ?? {}) as ThrownError;
  if (error.validation) {
    return problem(
      400,
      'VALIDATION_FAILED',
      'The request is invalid',
      validationProblems(error as FastifyError),
    );
  }
  const fastify = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (fastify)
    return problem(
      fastify.status,
      fastify.code,
      fastify.detail ?? error.message ?? 'Invalid request',
    );
  if (error.name === 'PrismaClientKnownRequestError') {
    if (error.code === 'P2002') return problem(409, 'CONFLICT', 'The resource already exists');
    if (error.code === 'P2025') return problem(404, 'NOT_FOUND', 'The resource was not found');
    if (error.code === 'P2003')
      return problem(409, 'CONFLICT', 'A related resource is missing or still in use');
    // A serialization failure or deadlock: a concurrent change won; the request may be repeated.
    if (
      error.code === 'P2034' ||
      error.meta?.driverAdapterError?.cause?.kind === 'TransactionWriteConflict'
    ) {
      return problem(409, 'CONFLICT', 'A concurrent change got in the way; try again');
    }
  }
  if (isDatabaseUnavailable(error)) {
    return problem(503, 'UNAVAILABLE', 'The service is temporarily unavailable; try again shortly');
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // Fastify's own 4xx errors (and body-stream errors, which carry no code) get one generic code.
    const code =
      typeof error.code === 'string' && !error.code.startsWith('FST_')
        ? error.code
        : 'INVALID_REQUEST';
    return problem(status, code, error.message ?? 'Invalid request', error.errors);
  }
  if (status >= 500 && isDefinedError(error)) {
    return problem(status, error.code, error.message ?? 'Server error', error.errors);
  }
  return problem(500, 'INTERNAL', 'An unexpected error occurred');
}
