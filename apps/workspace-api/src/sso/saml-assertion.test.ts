import { Value } from '@sinclair/typebox/value';
import { bearerConfirmation, identityFromAssertion, type ParsedAssertion } from './saml-assertion';
import { isSsoRefusal } from './sso-refusal';
import { SamlSettingsSchema, type SamlSettings } from './saml-settings';

const ACS = 'https://desk.example.org/sign-in/sso/corp/acs';
const NOW = Date.parse('2027-01-03T12:00:00Z');
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

const assertion = (...confirmations: Record<string, string>[]): ParsedAssertion => ({
  Assertion: {
    $: { ID: '_a1' },
    Subject: [
      {
        SubjectConfirmation: confirmations.map(({ Method = BEARER, ...data }) => ({
          $: { Method },
          SubjectConfirmationData: [{ $: data }],
        })),
      },
    ],
  },
});
const reasonOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return isSsoRefusal(error) ? error.reason : error;
  }
  return null;
};

describe('bearerConfirmation', () => {
  const valid = { NotOnOrAfter: '2027-01-03T12:05:00Z', Recipient: ACS, InResponseTo: '_r1' };

  it('returns the assertion ID, when it expires (plus the skew) and what it answers', () => {
    expect(bearerConfirmation(assertion(valid), ACS, NOW, 60_000)).toEqual({
      assertionId: '_a1',
      expiresAt: new Date('2027-01-03T12:06:00Z'),
      inResponseTo: '_r1',
    });
  });

  it.each([
    [
      'no bearer SubjectConfirmation',
      assertion({ ...valid, Method: 'urn:other' }),
      'SSO_SAML_INVALID',
    ],
    [
      'a NotOnOrAfter passed',
      assertion({ ...valid, NotOnOrAfter: '2027-01-03T11:58:59Z' }),
      'SSO_SAML_EXPIRED',
    ],
    ['no NotOnOrAfter', assertion({ Recipient: ACS }), 'SSO_SAML_EXPIRED'],
    [
      'a NotBefore to come',
      assertion({ ...valid, NotBefore: '2027-01-03T12:01:01Z' }),
      'SSO_SAML_EXPIRED',
    ],
    ['another Recipient', assertion({ ...valid, Recipient: `${ACS}x` }), 'SSO_SAML_AUDIENCE'],
    ['no ID', { Assertion: { Subject: [] } }, 'SSO_SAML_INVALID'],
  ])('refuses an assertion with %s', (_what, parsed, reason) => {
    expect(reasonOf(() => bearerConfirmation(parsed, ACS, NOW, 60_000))).toBe(reason);
  });

  it('accepts a clock up to the skew behind or ahead', () => {
    const late = assertion({ ...valid, NotOnOrAfter: '2027-01-03T11:59:30Z' });
    expect(bearerConfirmation(late, ACS, NOW, 60_000).assertionId).toBe('_a1');
    const early = assertion({ ...valid, NotBefore: '2027-01-03T12:00:30Z' });
    expect(bearerConfirmation(early, ACS, NOW, 60_000).assertionId).toBe('_a1');
  });
});

describe('identityFromAssertion', () => {
  const settings = (extra: object = {}): SamlSettings =>
    Value.Default(SamlSettingsSchema, {
      idp_entity_id: 'urn:idp',
      sso_url: 'https://id.example.org/sso',
      idp_certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      sp_entity_id: 'urn:sp',
      ...extra,
    }) as SamlSettings;

  it('links by NameID, takes the username from the NameID by default and groups as a list', () => {
    const identity = identityFromAssertion(settings(), 'dana', {
      'urn:oid:2.5.4.42': 'Dana',
      'urn:oid:2.5.4.4': ['Scully', 'ignored'],
      groups: 'devs',
    });
    expect(identity).toEqual({
      subject: 'dana',
      fields: {
        username: 'dana',
        firstName: 'Dana',
        lastName: 'Scully',
        phone: '',
        organization: '',
      },
      groups: ['devs'],
    });
  });

  it('takes the username from the attribute named, and refuses when it is missing', () => {
    const named = settings({ username_attribute: 'uid' });
    expect(identityFromAssertion(named, 'x-1', { uid: 'dana' }).fields.username).toBe('dana');
    expect(reasonOf(() => identityFromAssertion(named, 'x-1', {}))).toBe('SSO_USERNAME_MISSING');
    expect(reasonOf(() => identityFromAssertion(named, undefined, {}))).toBe('SSO_SAML_INVALID');
  });
});
