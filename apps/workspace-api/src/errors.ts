import { createError } from '@platform/errors';

export const CredentialsMissingError = createError(
  'CREDENTIALS_MISSING',
  'API credentials are required: api_key and api_key_secret in the body, the api-key/api-key-secret headers, or Basic auth',
  401,
);
export const CredentialsInvalidError = createError('CREDENTIALS_INVALID', 'The API key or secret is not valid', 401);
export const CredentialsExpiredError = createError('CREDENTIALS_EXPIRED', 'The API key has expired', 401);
export const ForbiddenError = createError('FORBIDDEN', '%s', 403);

export const UserNotFoundError = createError('USER_NOT_FOUND', 'No user matches %s', 404);
export const GroupNotFoundError = createError('GROUP_NOT_FOUND', 'No group matches %s', 404);
export const ApiKeyNotFoundError = createError('API_KEY_NOT_FOUND', 'No API key matches %s', 404);
export const UsernameTakenError = createError('USERNAME_TAKEN', 'The username "%s" is already taken', 409);
export const UserAlreadyInGroupError = createError('USER_ALREADY_IN_GROUP', 'The user is already a member of this group', 409);
export const UserNotInGroupError = createError('USER_NOT_IN_GROUP', 'The user is not a member of this group', 404);
export const SystemMembershipError = createError('SYSTEM_MEMBERSHIP', 'Every user is a member of All Users; that membership cannot be removed', 409);
export const UserHasSessionsError = createError(
  'USER_HAS_SESSIONS',
  'The user has live sessions; pass "force": true to delete anyway',
  409,
);
export const PasswordRulesError = createError('PASSWORD_RULES', 'The password does not meet the password rules', 400);
export const InvalidCursorError = createError('INVALID_CURSOR', 'The cursor is not valid for this query', 400);

export const LoginFailedError = createError('LOGIN_FAILED', 'The username or password is incorrect', 401);
export const UserLockedError = createError('USER_LOCKED', 'The account is locked', 403);
export const UserDisabledError = createError('USER_DISABLED', 'The account is disabled', 403);
