import { Type, type Static } from '@sinclair/typebox';

const Attribute = (fallback: string, description: string) =>
  Type.String({ minLength: 1, maxLength: 255, default: fallback, description });
const Url = (description: string) =>
  Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 1000, description });

/** A SAML 2.0 identity provider's settings: its `saml:` block in the settings file. */
export const SamlSettingsSchema = Type.Object(
  {
    idp_entity_id: Type.String({
      minLength: 1,
      maxLength: 500,
      description: "The identity provider's entity ID: the assertions' Issuer must be this",
    }),
    sso_url: Url("The identity provider's single sign-on URL (HTTP-Redirect binding)"),
    idp_certificate: Type.String({
      pattern: '^\\s*-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\\s]+-----END CERTIFICATE-----\\s*$',
      maxLength: 16_384,
      description:
        "The identity provider's signing certificate (PEM): assertions must be signed by its key",
    }),
    slo_url: Type.Optional(
      Url(
        "The provider's single logout URL: when set, the provider's signed LogoutRequests end the user's logins here, and the LogoutResponse goes there",
      ),
    ),
    sp_entity_id: Type.String({
      minLength: 1,
      maxLength: 500,
      description: "This platform's entity ID at the provider: the assertions' Audience",
    }),
    name_id_format: Type.String({
      maxLength: 255,
      default: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      description: 'The NameID format asked for; the NameID is the stable link to the user',
    }),
    username_attribute: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'The attribute that is the username (the NameID when unset)',
      }),
    ),
    first_name_attribute: Attribute('urn:oid:2.5.4.42', 'The attribute mapped to first_name'),
    last_name_attribute: Attribute('urn:oid:2.5.4.4', 'The attribute mapped to last_name'),
    phone_attribute: Attribute(
      'urn:oid:2.5.4.20',
      'The attribute mapped to phone (telephoneNumber)',
    ),
    organization_attribute: Attribute('urn:oid:2.5.4.10', 'The attribute mapped to organization'),
    groups_attribute: Attribute('groups', 'The attribute (one or more values) group_mappings read'),
    clock_skew_seconds: Type.Integer({
      minimum: 0,
      maximum: 600,
      default: 60,
      description: "How far the provider's clock may be from this one in the time checks",
    }),
    allow_http: Type.Boolean({
      default: false,
      description: 'Lab only: lets sso_url be plain http (it must be https otherwise)',
    }),
  },
  { additionalProperties: false },
);
export type SamlSettings = Static<typeof SamlSettingsSchema>;
