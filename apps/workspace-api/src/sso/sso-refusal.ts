import { SsoRefusedError } from '../errors';

/**
 * Why a sign-in through a provider was refused: the audit event's error_code. The page shows the
 * message; the reasons that would tell whether an account exists share one message.
 */
export const SSO_REASONS = {
  SSO_STATE_MISMATCH: 'the sign-in was not started here, or it expired; start again',
  SSO_PROVIDER_ERROR: 'the provider answered with an error',
  SSO_PROVIDER_UNREACHABLE: 'the provider could not be reached',
  SSO_CODE_REFUSED: 'the provider refused the authorization code (used before, or expired)',
  SSO_ID_TOKEN_ISSUER: 'the ID token is from another issuer',
  SSO_ID_TOKEN_AUDIENCE: 'the ID token is for another client',
  SSO_ID_TOKEN_EXPIRED: 'the ID token has expired or is not valid yet',
  SSO_ID_TOKEN_NONCE: 'the ID token does not belong to this sign-in (nonce)',
  SSO_ID_TOKEN_SIGNATURE: 'the ID token signature is not valid',
  SSO_ID_TOKEN_INVALID: 'the ID token is not valid',
  SSO_USERNAME_MISSING: 'the provider named no username',
  SSO_USERNAME_TAKEN: 'an account of that username exists that is not this provider’s',
  SSO_USERNAME_INVALID: 'the username is not one this platform accepts',
  SSO_CREDENTIALS: 'The username or password is incorrect',
  // As SSO_CREDENTIALS: the page must not tell whether the directory knows a name.
  SSO_USER_NOT_FOUND: 'The username or password is incorrect',
  SSO_USERNAME_INJECTION: 'The username or password is incorrect',
  SSO_DIRECTORY_UNREACHABLE: 'the directory could not be reached',
  SSO_DIRECTORY_INSECURE: 'the directory is configured without TLS',
  SSO_ACCOUNT_REFUSED: 'the account is locked or disabled',
  SSO_SECRET_MISSING: "the provider's secret cannot be read",
  SSO_SAML_UNSIGNED: 'the SAML assertion is not signed',
  SSO_SAML_SIGNATURE: "the SAML assertion's signature is not the provider's",
  SSO_SAML_ISSUER: 'the SAML assertion is from another identity provider',
  SSO_SAML_AUDIENCE: 'the SAML assertion is for another service provider',
  SSO_SAML_EXPIRED: 'the SAML assertion has expired or is not valid yet',
  SSO_SAML_REPLAYED: 'the SAML assertion was used before',
  SSO_SAML_IN_RESPONSE_TO: 'the SAML response answers no sign-in started in this browser',
  SSO_SAML_INVALID: 'the SAML response is not valid',
} as const;
export type SsoReason = keyof typeof SSO_REASONS;

export type SsoRefusal = InstanceType<typeof SsoRefusedError> & {
  reason: SsoReason;
  detail: string;
};

/** A refused sign-in: `detail` (what the provider or library said) goes to the audit trail only. */
export function ssoRefusal(reason: SsoReason, detail = ''): SsoRefusal {
  return Object.assign(new SsoRefusedError(SSO_REASONS[reason]), { reason, detail });
}

export const isSsoRefusal = (error: unknown): error is SsoRefusal =>
  error instanceof SsoRefusedError && typeof (error as { reason?: unknown }).reason === 'string';

/** A refusal for the name or password typed: a failure for the sign-in throttles. */
export const isCredentialsRefusal = (error: unknown) =>
  isSsoRefusal(error) &&
  ['SSO_CREDENTIALS', 'SSO_USER_NOT_FOUND', 'SSO_USERNAME_INJECTION'].includes(error.reason);
