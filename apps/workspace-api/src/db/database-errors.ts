import { isDatabaseUnavailable, UnavailableError } from '@platform/errors';

const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

interface ReportedError {
  name?: string;
  code?: string;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } };
}

/** Which constraint refused a write: Prisma's code, the driver adapter's kind, the SQLSTATE. */
interface Violation {
  prisma: string;
  kind: string;
  sqlState: string;
}
const UNIQUE: Violation = {
  prisma: 'P2002',
  kind: 'UniqueConstraintViolation',
  sqlState: UNIQUE_VIOLATION,
};
const FOREIGN_KEY: Violation = {
  prisma: 'P2003',
  kind: 'ForeignKeyConstraintViolation',
  sqlState: FOREIGN_KEY_VIOLATION,
};

function violates(error: unknown, violation: Violation): boolean {
  const e = (error ?? {}) as ReportedError;
  if (e.name === 'PrismaClientKnownRequestError' && e.code === violation.prisma) return true;
  const driver = e.meta?.driverAdapterError?.cause;
  if (driver?.kind === violation.kind || driver?.originalCode === violation.sqlState) return true;
  return e.code === violation.sqlState && e.name !== 'PrismaClientKnownRequestError';
}

/**
 * A unique constraint refused the write, however the statement ran: Prisma's model API (P2002),
 * Prisma raw SQL (P2010 carrying the driver's report) or a statement on the pool (SQLSTATE 23505).
 * Callers map it to their resource's 409 (USERNAME_TAKEN, GROUP_NAME_TAKEN, …).
 */
export function isUniqueViolation(error: unknown): boolean {
  return violates(error, UNIQUE);
}

/**
 * A foreign key refused the write (P2003, SQLSTATE 23503): the row referred to does not exist,
 * or a row still refers to the one being deleted. Callers map it to their 404 or 409.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return violates(error, FOREIGN_KEY);
}

/** An update or delete of one row by its key found no row (Prisma's P2025). */
export function isRecordNotFound(error: unknown): boolean {
  const e = (error ?? {}) as ReportedError;
  return e.name === 'PrismaClientKnownRequestError' && e.code === 'P2025';
}

/** Runs a write of one row by its key; null when no row has the key. */
export async function orNullWhenMissing<T>(write: Promise<T>): Promise<T | null> {
  try {
    return await write;
  } catch (error) {
    if (isRecordNotFound(error)) return null;
    throw error;
  }
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
