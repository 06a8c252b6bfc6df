import { ssoRefusal } from './sso-refusal';
import type { DirectoryIdentity } from './sso-sign-in';
import type { SamlSettings } from './saml-settings';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

type Attrs = Record<string, string | undefined>;
/** The signed assertion as node-saml parses it (xml2js: attributes under `$`, children as arrays). */
export interface ParsedAssertion {
  Assertion?: {
    $?: Attrs;
    Subject?: {
      SubjectConfirmation?: { $?: Attrs; SubjectConfirmationData?: { $?: Attrs }[] }[];
    }[];
  };
}

/** What the replay and InResponseTo checks need of a verified assertion. */
export interface BearerConfirmation {
  assertionId: string;
  /** Until when the assertion can be used (its confirmation's NotOnOrAfter, plus the skew). */
  expiresAt: Date;
  inResponseTo: string | null;
}

/**
 * The assertion's bearer SubjectConfirmation (SAML 2.0 Web Browser SSO profile, 4.1.4.2): one
 * that is valid now (NotBefore/NotOnOrAfter, give or take the skew), for this ACS URL (Recipient).
 */
export function bearerConfirmation(
  parsed: ParsedAssertion,
  acsUrl: string,
  nowMs: number,
  skewMs: number,
): BearerConfirmation {
  const assertionId = parsed.Assertion?.$?.ID;
  if (!assertionId) throw ssoRefusal('SSO_SAML_INVALID', 'the assertion has no ID');
  const bearers = (parsed.Assertion?.Subject?.[0]?.SubjectConfirmation ?? [])
    .filter((c) => c.$?.Method === BEARER)
    .map((c): Attrs => c.SubjectConfirmationData?.[0]?.$ ?? {});
  if (bearers.length === 0)
    throw ssoRefusal('SSO_SAML_INVALID', 'the assertion has no bearer SubjectConfirmation');
  const timely = bearers
    .map((data) => ({ data, until: Date.parse(data.NotOnOrAfter ?? '') }))
    .filter(({ data, until }) => {
      const notBefore = data.NotBefore ? Date.parse(data.NotBefore) : -Infinity;
      return nowMs - skewMs < until && nowMs + skewMs >= notBefore;
    });
  if (timely.length === 0)
    throw ssoRefusal('SSO_SAML_EXPIRED', 'no SubjectConfirmation is valid now (NotOnOrAfter)');
  const found = timely.find(({ data }) => data.Recipient === acsUrl);
  if (!found)
    throw ssoRefusal('SSO_SAML_AUDIENCE', `the SubjectConfirmation's Recipient is not ${acsUrl}`);
  return {
    assertionId,
    expiresAt: new Date(found.until + skewMs),
    inResponseTo: found.data.InResponseTo ?? null,
  };
}

const values = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
const first = (attributes: Record<string, unknown>, name: string, max = 64) =>
  (values(attributes[name])[0] ?? '').slice(0, max);

/** The user the assertion vouches for: the NameID links them, the attributes fill their fields. */
export function identityFromAssertion(
  settings: SamlSettings,
  nameId: string | undefined,
  attributes: Record<string, unknown>,
): DirectoryIdentity {
  if (!nameId) throw ssoRefusal('SSO_SAML_INVALID', 'the assertion has no NameID');
  if (nameId.length > 255) throw ssoRefusal('SSO_SAML_INVALID', 'the NameID is longer than 255');
  const username = settings.username_attribute
    ? first(attributes, settings.username_attribute, 256)
    : nameId;
  if (username.trim() === '')
    throw ssoRefusal('SSO_USERNAME_MISSING', `no "${settings.username_attribute}" attribute`);
  if (username.length > 255) throw ssoRefusal('SSO_USERNAME_INVALID', 'longer than 255');
  return {
    subject: nameId,
    fields: {
      username,
      firstName: first(attributes, settings.first_name_attribute),
      lastName: first(attributes, settings.last_name_attribute),
      phone: first(attributes, settings.phone_attribute),
      organization: first(attributes, settings.organization_attribute),
    },
    groups: values(attributes[settings.groups_attribute]),
  };
}
