import { isRecordNotFound, mapDatabaseError } from '@platform/errors';

/** Callers map these to their resource's 409 or 404 (USERNAME_TAKEN, ZONE_NOT_FOUND, …). */
export { isForeignKeyViolation, isUniqueViolation } from '@platform/errors';

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
 * becomes the 503 UNAVAILABLE that Prisma's own failures become. Everything else, a unique
 * violation included, is left for the caller.
 */
export function toDatabaseError(error: unknown): unknown {
  return mapDatabaseError(error);
}
