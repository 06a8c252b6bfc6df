import { createError, ValidationFailedError, withFieldErrors } from '@platform/errors';

export const EventNotFoundError = createError('EVENT_NOT_FOUND', 'No event matches %s', 404);
export const AssetNotFoundError = createError('NOT_FOUND', 'No file %s', 404);
export const PreconditionFailedError = createError(
  'PRECONDITION_FAILED',
  'The event has changed since it was read: If-Match does not match its current ETag',
  412,
);

export const TokenMissingError = createError(
  'TOKEN_MISSING',
  'This request needs an Authorization: Bearer <token> header',
  401,
);
export const TokenInvalidError = createError(
  'TOKEN_INVALID',
  'The bearer token is not valid or was revoked',
  401,
);
export const TokenNotFoundError = createError('TOKEN_NOT_FOUND', 'No API token has id %s', 404);

/** A 400 VALIDATION_FAILED naming one field, for rules a JSON schema cannot express. */
export function invalidField(field: string, message: string): Error {
  return withFieldErrors(new ValidationFailedError('The request is invalid'), [{ field, message }]);
}

export const SlackSignatureInvalidError = createError('SLACK_SIGNATURE_INVALID', '%s', 401);
export const SlackPayloadInvalidError = createError(
  'INVALID_JSON',
  'The body of a Slack event must be a JSON object',
  400,
);
