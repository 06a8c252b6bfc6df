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
  'The bearer token is not valid, has expired or was revoked',
  401,
);
export const TokenReadOnlyError = createError(
  'TOKEN_READ_ONLY',
  'The bearer token may only read (scope read); this request needs a token with scope write',
  403,
);
export const TokenNotFoundError = createError('TOKEN_NOT_FOUND', 'No API token has id %s', 404);
/** A token's scope or expiry that may not be issued (the message says why). */
export const TokenRequestInvalidError = createError('TOKEN_REQUEST_INVALID', '%s', 400);
/** Also the answer to a wrong or rotated secret: it never says whether an address exists. */
export const FeedNotFoundError = createError('FEED_NOT_FOUND', 'No calendar feed %s', 404);

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
