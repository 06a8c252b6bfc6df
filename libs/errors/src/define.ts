import createFastifyError from '@fastify/error';

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Defines an error once, with its stable code, message (printf-style `%s` arguments) and
 * status: `const UserNotFound = createError('USER_NOT_FOUND', 'No user %s', 404)`.
 */
export function createError(code: string, message: string, statusCode: number) {
  return createFastifyError(code, message, statusCode);
}

/** Attaches the per-field problems that the error handler renders in `errors`. */
export function withFieldErrors<E extends Error>(error: E, errors: FieldProblem[]): E {
  return Object.assign(error, { errors });
}

/** Attaches the number of seconds after which the client may try again (`Retry-After`). */
export function withRetryAfter<E extends Error>(error: E, seconds: number): E {
  return Object.assign(error, { retryAfterSeconds: seconds });
}

const UNIQUE_VIOLATION = '23505';

interface ReportedError {
  name?: string;
  code?: string;
  meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } };
}

/**
 * A unique constraint refused the write, however the statement ran: Prisma's model API (P2002),
 * Prisma raw SQL (P2010 carrying the driver's report) or a statement on the pool (SQLSTATE 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = (error ?? {}) as ReportedError;
  if (e.name === 'PrismaClientKnownRequestError' && e.code === 'P2002') return true;
  const driver = e.meta?.driverAdapterError?.cause;
  if (driver?.kind === 'UniqueConstraintViolation' || driver?.originalCode === UNIQUE_VIOLATION)
    return true;
  return e.code === UNIQUE_VIOLATION && e.name !== 'PrismaClientKnownRequestError';
}
