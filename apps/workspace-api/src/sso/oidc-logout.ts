import { createRemoteJWKSet, jwtVerify } from 'jose';
import type * as client from 'openid-client';
import { ssoRefusal } from './sso-refusal';

const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const jwksOf = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/**
 * The subject of a back-channel logout token (OpenID Connect Back-Channel Logout 1.0, 2.6):
 * signed by the provider's keys, from its issuer, for this client, recent, with the logout
 * event and no nonce.
 */
export async function logoutSubject(
  config: client.Configuration,
  clientId: string,
  token: string,
): Promise<string> {
  const { issuer, jwks_uri: jwksUri } = config.serverMetadata();
  if (!jwksUri) throw ssoRefusal('SSO_ID_TOKEN_INVALID', 'the provider publishes no jwks_uri');
  let jwks = jwksOf.get(jwksUri);
  if (!jwks) jwksOf.set(jwksUri, (jwks = createRemoteJWKSet(new URL(jwksUri))));
  const { payload } = await jwtVerify(token, jwks, {
    issuer,
    audience: clientId,
    maxTokenAge: '10 minutes',
    requiredClaims: ['iat', 'jti'],
  }).catch((error: unknown) => {
    throw ssoRefusal('SSO_ID_TOKEN_INVALID', error instanceof Error ? error.message : '');
  });
  const events = payload.events as Record<string, unknown> | undefined;
  if (typeof events?.[BACKCHANNEL_EVENT] !== 'object' || 'nonce' in payload)
    throw ssoRefusal('SSO_ID_TOKEN_INVALID', 'not a logout token');
  if (typeof payload.sub !== 'string')
    throw ssoRefusal('SSO_ID_TOKEN_INVALID', 'the logout token names no subject (sub)');
  return payload.sub;
}
