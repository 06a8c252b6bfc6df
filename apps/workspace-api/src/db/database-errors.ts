import { mapDatabaseError } from '@platform/errors';

/** Callers map a unique violation to their resource's 409 (USERNAME_TAKEN, GROUP_NAME_TAKEN, …). */
export { isUniqueViolation } from '@platform/errors';

/**
 * The outage mapping for statements that run on the pool: an unreachable or overloaded database
 * becomes the 503 UNAVAILABLE that Prisma's own failures become. Everything else, a unique
 * violation included, is left for the caller.
 */
export function toDatabaseError(error: unknown): unknown {
  return mapDatabaseError(error);
}
