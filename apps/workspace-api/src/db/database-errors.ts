import { isDatabaseUnavailable, UnavailableError } from '@platform/errors';

const UNIQUE_VIOLATION = '23505';

interface ReportedError {
  name?: string;
  code?: string;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } };
}

/**
 * A unique constraint refused the write, however the statement ran: Prisma's model API (P2002),
 * Prisma raw SQL (P2010 carrying the driver's report) or a statement on the pool (SQLSTATE 23505).
 * Callers map it to their resource's 409 (USERNAME_TAKEN, GROUP_NAME_TAKEN, …).
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = (error ?? {}) as ReportedError;
  if (e.name === 'PrismaClientKnownRequestError' && e.code === 'P2002') return true;
  const driver = e.meta?.driverAdapterError?.cause;
  if (driver?.kind === 'UniqueConstraintViolation' || driver?.originalCode === UNIQUE_VIOLATION)
    return true;
  return e.code === UNIQUE_VIOLATION && e.name !== 'PrismaClientKnownRequestError';
}

/**
 * The outage mapping for statements that run on the pool: an unreachable or overloaded database
 * becomes the 503 UNAVAILABLE that Prisma's own failures become (the error keeps the original as
 * `cause`, for the log). Everything else, a unique violation included, is left for the caller.
 */
export function toDatabaseError(error: unknown): unknown {
  if (isDatabaseUnavailable(error)) return Object.assign(new UnavailableError(), { cause: error });
  return error;
}
