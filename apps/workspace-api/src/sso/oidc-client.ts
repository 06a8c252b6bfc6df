import * as client from 'openid-client';
import { readSecret } from './sso-secrets';
import { ssoRefusal, type SsoReason, type SsoRefusal } from './sso-refusal';
import type { DirectoryIdentity } from './sso-sign-in';
import type { OidcSettings } from './oidc-settings';

/** What an OpenID Connect sign-in under way keeps in its cookie until the provider sends the user back. */
export interface OidcPending {
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  next?: string;
}

/** A provider's discovered configuration, kept while its settings stay the same. */
const discovered = new Map<string, Promise<client.Configuration>>();

/** The settings' discovered configuration: the provider's metadata, our client and its checks. */
export function oidcConfiguration(key: string, settings: OidcSettings) {
  const cached = discovered.get(key);
  if (cached) return cached;
  const made = (async () => {
    let auth: client.ClientAuth = client.None();
    if (settings.client_secret) {
      const secret = await readSecret(settings.client_secret);
      if ('problem' in secret) throw ssoRefusal('SSO_SECRET_MISSING', secret.problem);
      auth = client.ClientSecretPost(secret.value);
    }
    const execute = [client.enableNonRepudiationChecks];
    if (settings.allow_http) execute.push(client.allowInsecureRequests);
    return client
      .discovery(new URL(settings.issuer), settings.client_id, undefined, auth, {
        execute,
        timeout: 10,
      })
      .catch((error: unknown) => {
        throw ssoRefusal('SSO_PROVIDER_UNREACHABLE', messageOf(error));
      });
  })();
  discovered.set(key, made);
  made.catch(() => discovered.delete(key));
  return made;
}

/** The provider's authorization URL for a new sign-in, and what to keep until it comes back. */
export async function startOidcSignIn(
  config: client.Configuration,
  settings: OidcSettings,
  redirectUri: string,
  provider: string,
  next?: string,
): Promise<{ url: URL; pending: OidcPending }> {
  const verifier = client.randomPKCECodeVerifier();
  const pending = {
    provider,
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier,
    ...(next ? { next } : {}),
  };
  const scope = [...new Set(['openid', ...settings.scopes])].join(' ');
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url, pending };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

type LibraryError = { code?: string; error?: string; message?: string; cause?: unknown };

/** openid-client wraps oauth4webapi's error: the messages and the claim along the causes. */
function chainOf(error: unknown) {
  const messages: string[] = [];
  let claim: string | undefined;
  for (let e = error as LibraryError | undefined, depth = 0; e && depth < 4; depth++) {
    if (typeof e !== 'object') break;
    if (e.error) messages.push(e.error);
    if (e.message) messages.push(e.message);
    claim ??= (e.cause as { claim?: string } | undefined)?.claim;
    e = e.cause as LibraryError | undefined;
  }
  return { detail: messages.join(': '), claim };
}

/** Which check an openid-client error is, as the audit trail names it. */
export function reasonOf(error: unknown): SsoRefusal {
  const code = (error as LibraryError | null)?.code;
  const { detail, claim } = chainOf(error);
  const byClaim: Record<string, SsoReason> = {
    aud: 'SSO_ID_TOKEN_AUDIENCE',
    azp: 'SSO_ID_TOKEN_AUDIENCE',
    iss: 'SSO_ID_TOKEN_ISSUER',
    nonce: 'SSO_ID_TOKEN_NONCE',
  };
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && claim && byClaim[claim])
    return ssoRefusal(byClaim[claim], detail);
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED')
    return ssoRefusal('SSO_ID_TOKEN_EXPIRED', detail);
  if (/signature/i.test(detail)) return ssoRefusal('SSO_ID_TOKEN_SIGNATURE', detail);
  if (error instanceof client.ResponseBodyError) return ssoRefusal('SSO_CODE_REFUSED', detail);
  if (error instanceof client.AuthorizationResponseError)
    return ssoRefusal('SSO_PROVIDER_ERROR', detail);
  if (error instanceof TypeError) return ssoRefusal('SSO_PROVIDER_UNREACHABLE', detail);
  return ssoRefusal('SSO_ID_TOKEN_INVALID', detail);
}

const text = (claims: Record<string, unknown>, name: string, max = 64) => {
  const value = claims[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
};
const names = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];

/** The user the provider vouches for, from the ID token's claims and the UserInfo endpoint's. */
export function identityFromClaims(
  settings: OidcSettings,
  claims: Record<string, unknown>,
): DirectoryIdentity {
  const username = claims[settings.username_claim];
  if (typeof username !== 'string' || username.trim() === '')
    throw ssoRefusal('SSO_USERNAME_MISSING', `no "${settings.username_claim}" claim`);
  if (username.length > 255) throw ssoRefusal('SSO_USERNAME_INVALID', 'longer than 255');
  return {
    subject: String(claims.sub),
    fields: {
      username,
      firstName: text(claims, settings.first_name_claim),
      lastName: text(claims, settings.last_name_claim),
      phone: text(claims, settings.phone_claim),
      organization: text(claims, settings.organization_claim),
    },
    groups: names(claims[settings.groups_claim]),
  };
}

/**
 * Spends the provider's answer: the code exchanged with the PKCE verifier, the ID token checked
 * (signature, issuer, audience, expiry, nonce), UserInfo read when the ID token lacks a claim.
 */
export async function finishOidcSignIn(
  config: client.Configuration,
  settings: OidcSettings,
  callbackUrl: URL,
  pending: OidcPending,
): Promise<DirectoryIdentity> {
  const tokens = await client
    .authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    })
    .catch((error: unknown) => {
      throw reasonOf(error);
    });
  let claims: Record<string, unknown> = { ...tokens.claims() };
  const lacking = [settings.username_claim, settings.groups_claim].some((c) => !(c in claims));
  if (lacking && config.serverMetadata().userinfo_endpoint) {
    const info = await client
      .fetchUserInfo(config, tokens.access_token, String(claims.sub))
      .catch((error: unknown) => {
        throw reasonOf(error);
      });
    claims = { ...info, ...claims };
  }
  return identityFromClaims(settings, claims);
}
