import { createError } from './define';

export const ValidationFailedError = createError('VALIDATION_FAILED', '%s', 400);
export const ConflictError = createError('CONFLICT', '%s', 409);
export const UnavailableError = createError(
  'UNAVAILABLE',
  'The service is temporarily unavailable; try again shortly',
  503,
);
