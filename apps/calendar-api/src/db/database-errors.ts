import { ConflictError, mapDatabaseError } from '@platform/errors';

/** calendar-api's one mapping: a unique violation is a 409 CONFLICT, an outage a 503. */
export function toDatabaseError(error: unknown): unknown {
  return mapDatabaseError(error, {
    uniqueViolation: () => new ConflictError('The resource already exists'),
  });
}
