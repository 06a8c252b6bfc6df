import { UnavailableError } from './common-errors';
import { isUniqueViolation } from './define';
import { isDatabaseUnavailable } from './to-problem';

export interface DatabaseErrorMapping {
  /** The error a unique violation becomes; without it, the violation is left for the caller. */
  uniqueViolation?: () => Error;
}

/**
 * A service's mapping of database failures: an unreachable or overloaded database becomes a 503
 * UNAVAILABLE, a unique violation what the service says, anything else stays as it is (a 500,
 * logged in full). The mapped error keeps the original as `cause`, for the log.
 */
export function mapDatabaseError(error: unknown, mapping: DatabaseErrorMapping = {}): unknown {
  if (mapping.uniqueViolation && isUniqueViolation(error)) {
    return Object.assign(mapping.uniqueViolation(), { cause: error });
  }
  if (isDatabaseUnavailable(error)) return Object.assign(new UnavailableError(), { cause: error });
  return error;
}
