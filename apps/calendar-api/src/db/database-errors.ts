import { DatabaseError } from 'pg';
import { ConflictError, isDatabaseUnavailable, UnavailableError } from '@platform/errors';

interface DriverError {
  name?: string;
  code?: string;
  meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } };
}

/**
 * A unique constraint refused the write, whichever way the statement ran: Prisma's model API
 * (P2002), Prisma raw SQL (P2010 carrying the driver's error) or a statement on the pg pool
 * (PostgreSQL's 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = (error ?? {}) as DriverError;
  if (e.name === 'PrismaClientKnownRequestError' && e.code === 'P2002') return true;
  const cause = e.meta?.driverAdapterError?.cause;
  if (cause?.kind === 'UniqueConstraintViolation' || cause?.originalCode === '23505') return true;
  return error instanceof DatabaseError && error.code === '23505';
}

/**
 * The one mapping of database failures to the service's errors: a unique violation is a 409
 * CONFLICT, an unreachable or overloaded database a 503 UNAVAILABLE. Anything else is left as it
 * is (a 500, logged in full). The original error stays as `cause` for the log.
 */
export function toDatabaseError(error: unknown): unknown {
  if (isUniqueViolation(error)) {
    return Object.assign(new ConflictError('The resource already exists'), { cause: error });
  }
  if (isDatabaseUnavailable(error)) return Object.assign(new UnavailableError(), { cause: error });
  return error;
}
