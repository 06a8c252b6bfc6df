import { randomBytes } from 'node:crypto';
import { SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import { ssoRefusal, type SsoRefusal } from './sso-refusal';
import {
  bearerConfirmation,
  identityFromAssertion,
  type BearerConfirmation,
  type ParsedAssertion,
} from './saml-assertion';
import type { DirectoryIdentity } from './sso-sign-in';
import type { SamlSettings } from './saml-settings';

/** What a SAML sign-in under way keeps in its cookie until the provider posts its Response. */
export interface SamlPending {
  provider: string;
  /** The AuthnRequest's ID: the Response must answer it (InResponseTo). */
  requestId: string;
  next?: string;
}

/** Single logout's endpoint here, beside the ACS. */
export const sloUrlOf = (acsUrl: string) => acsUrl.replace(/\/acs$/, '/slo');

/**
 * node-saml for one provider. InResponseTo is not left to it (its cache is per process, not per
 * browser): the sign-in (saml.service.ts) checks it against this browser's request after the
 * replay check, so that a replayed assertion is named as one (decision record 0019).
 */
function samlOf(settings: SamlSettings, acsUrl: string, requestId?: string) {
  return new SAML({
    entryPoint: settings.sso_url,
    idpIssuer: settings.idp_entity_id,
    ...(settings.slo_url
      ? { logoutUrl: settings.slo_url, logoutCallbackUrl: sloUrlOf(acsUrl) }
      : {}),
    issuer: settings.sp_entity_id,
    audience: settings.sp_entity_id,
    callbackUrl: acsUrl,
    idpCert: settings.idp_certificate.trim(),
    identifierFormat: settings.name_id_format,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: settings.clock_skew_seconds * 1000,
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** The provider's SSO URL with a fresh AuthnRequest (HTTP-Redirect binding), and what to keep. */
export async function startSamlSignIn(
  settings: SamlSettings,
  acsUrl: string,
  provider: string,
  next?: string,
): Promise<{ url: URL; pending: SamlPending }> {
  if (!settings.allow_http && !settings.sso_url.startsWith('https://'))
    throw ssoRefusal('SSO_PROVIDER_ERROR', 'sso_url is not https (allow_http is off)');
  const requestId = `_${randomBytes(20).toString('hex')}`;
  const url = await samlOf(settings, acsUrl, requestId)
    .getAuthorizeUrlAsync('', undefined, {})
    .catch((error: unknown) => {
      throw ssoRefusal('SSO_PROVIDER_ERROR', error instanceof Error ? error.message : '');
    });
  return { url: new URL(url), pending: { provider, requestId, ...(next ? { next } : {}) } };
}

/** This platform as a service provider, for the identity provider to import. */
export const samlMetadata = (settings: SamlSettings, acsUrl: string) =>
  samlOf(settings, acsUrl).generateServiceProviderMetadata(null, null);

const ASSERTION_START = /<(?:[\w-]+:)?Assertion[\s>]/;
const SIGNATURE = /<(?:[\w-]+:)?Signature[\s>]/;

/** The assertion's text, found without a backtracking pattern over an attacker's whole post. */
function assertionIn(xml: string): string | undefined {
  const start = xml.search(ASSERTION_START);
  const end = xml.lastIndexOf('Assertion>');
  return start >= 0 && end > start ? xml.slice(start, end) : undefined;
}

/** Which check a node-saml error is, as the audit trail names it. */
export function samlReasonOf(error: unknown, responseXml: string): SsoRefusal {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof SamlStatusError) return ssoRefusal('SSO_PROVIDER_ERROR', detail);
  const assertion = assertionIn(responseXml);
  if (/signature/i.test(detail) && assertion) {
    const signed = SIGNATURE.test(assertion);
    return ssoRefusal(signed ? 'SSO_SAML_SIGNATURE' : 'SSO_SAML_UNSIGNED', detail);
  }
  if (/audience/i.test(detail)) return ssoRefusal('SSO_SAML_AUDIENCE', detail);
  if (/expired|not yet valid/i.test(detail)) return ssoRefusal('SSO_SAML_EXPIRED', detail);
  return ssoRefusal('SSO_SAML_INVALID', detail);
}

/**
 * The provider's Response, checked: the assertion signed by the provider's certificate (an
 * unsigned one is refused even in a signed Response), its Issuer, its Conditions (NotBefore,
 * NotOnOrAfter, Audience) and its bearer SubjectConfirmation (time, Recipient).
 */
export async function checkSamlResponse(
  settings: SamlSettings,
  acsUrl: string,
  samlResponse: string,
): Promise<{
  identity: DirectoryIdentity;
  confirmation: BearerConfirmation;
  answers: string | null;
}> {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  const { profile } = await samlOf(settings, acsUrl)
    .validatePostResponseAsync({ SAMLResponse: samlResponse })
    .catch((error: unknown) => {
      throw samlReasonOf(error, xml);
    });
  if (!profile) throw ssoRefusal('SSO_SAML_INVALID', 'the Response holds no assertion');
  if (profile.issuer !== settings.idp_entity_id)
    throw ssoRefusal('SSO_SAML_ISSUER', `the assertion's Issuer is ${profile.issuer}`);
  const confirmation = bearerConfirmation(
    (profile.getAssertion?.() ?? {}) as ParsedAssertion,
    acsUrl,
    Date.now(),
    settings.clock_skew_seconds * 1000,
  );
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  return {
    identity: identityFromAssertion(settings, profile.nameID, attributes),
    confirmation,
    answers: typeof profile.inResponseTo === 'string' ? profile.inResponseTo : null,
  };
}

/** A LogoutRequest as either binding brings it; `query` is the raw query string of a redirect. */
export interface SamlLogoutMessage {
  SAMLRequest: string;
  RelayState?: string;
  SigAlg?: string;
  Signature?: string;
}

/**
 * The provider's LogoutRequest (single logout), checked: signed by the provider (the query's
 * signature for the Redirect binding, the XML's for POST; an unsigned one is refused), from its
 * entity ID, in time. Returns the NameID it signs out and where to send the LogoutResponse.
 */
export async function checkLogoutRequest(
  settings: SamlSettings,
  acsUrl: string,
  message: SamlLogoutMessage,
  query: string | null,
): Promise<{ nameId: string; respond: () => Promise<string> }> {
  const saml = samlOf(settings, acsUrl);
  if (query !== null && !message.Signature)
    throw ssoRefusal('SSO_SAML_UNSIGNED', 'the LogoutRequest is not signed');
  const checked =
    query !== null
      ? saml.validateRedirectAsync({ ...message }, query)
      : saml.validatePostRequestAsync({ SAMLRequest: message.SAMLRequest });
  const { profile } = await checked.catch((error: unknown) => {
    const detail = error instanceof Error ? error.message : String(error);
    if (/signature/i.test(detail)) {
      const xml = Buffer.from(message.SAMLRequest, 'base64').toString('utf8');
      const signed = query !== null || SIGNATURE.test(xml);
      throw ssoRefusal(signed ? 'SSO_SAML_SIGNATURE' : 'SSO_SAML_UNSIGNED', detail);
    }
    if (/issuer/i.test(detail)) throw ssoRefusal('SSO_SAML_ISSUER', detail);
    throw samlReasonOf(error, '');
  });
  if (!profile?.nameID) throw ssoRefusal('SSO_SAML_INVALID', 'the LogoutRequest names no one');
  return {
    nameId: profile.nameID,
    respond: () => saml.getLogoutResponseUrlAsync(profile, message.RelayState ?? '', {}, true),
  };
}
