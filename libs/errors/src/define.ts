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

interface ReportedError {
  name?: string;
  code?: string;
  meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } };
}

/** Which constraint refused a write: Prisma's code, the driver adapter's kind, the SQLSTATE. */
interface Violation {
  prisma: string;
  kind: string;
  sqlState: string;
}

/** However the statement ran: Prisma's model API, Prisma raw SQL (P2010 carrying the driver's
 * report) or a statement on the pool. */
function violates(error: unknown, violation: Violation): boolean {
  const e = (error ?? {}) as ReportedError;
  if (e.name === 'PrismaClientKnownRequestError' && e.code === violation.prisma) return true;
  const driver = e.meta?.driverAdapterError?.cause;
  if (driver?.kind === violation.kind || driver?.originalCode === violation.sqlState) return true;
  return e.code === violation.sqlState && e.name !== 'PrismaClientKnownRequestError';
}

/** A unique constraint refused the write (P2002, SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return violates(error, { prisma: 'P2002', kind: 'UniqueConstraintViolation', sqlState: '23505' });
}

/**
 * A foreign key refused the write (P2003, SQLSTATE 23503): the row referred to does not exist,
 * or a row still refers to the one being deleted.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return violates(error, {
    prisma: 'P2003',
    kind: 'ForeignKeyConstraintViolation',
    sqlState: '23503',
  });
}

/** An update or delete of one row by its key found no row (Prisma's P2025). */
export function isRecordNotFound(error: unknown): boolean {
  const e = (error ?? {}) as ReportedError;
  return e.name === 'PrismaClientKnownRequestError' && e.code === 'P2025';
}
