import { Type, type Static } from '@sinclair/typebox';
import { SecretRefSchema } from './sso-secrets';

const Claim = (fallback: string, description: string) =>
  Type.String({ minLength: 1, maxLength: 128, default: fallback, description });

/** An OpenID Connect provider's settings: its `oidc:` block in the settings file. */
export const OidcSettingsSchema = Type.Object(
  {
    issuer: Type.String({
      pattern: '^https?://[^\\s]+$',
      maxLength: 500,
      description: 'The issuer URL; its /.well-known/openid-configuration is read (discovery)',
    }),
    client_id: Type.String({ minLength: 1, maxLength: 255 }),
    client_secret: Type.Optional(SecretRefSchema),
    scopes: Type.Array(
      Type.String({ pattern: '^[\\x21\\x23-\\x5b\\x5d-\\x7e]+$', maxLength: 64 }),
      {
        default: ['openid', 'profile', 'email'],
        maxItems: 20,
        description: 'Asked for at sign-in; openid is always asked for',
      },
    ),
    username_claim: Claim('preferred_username', "The claim that is the user's username"),
    first_name_claim: Claim('given_name', 'The claim mapped to first_name'),
    last_name_claim: Claim('family_name', 'The claim mapped to last_name'),
    phone_claim: Claim('phone_number', 'The claim mapped to phone'),
    organization_claim: Claim('organization', 'The claim mapped to organization'),
    groups_claim: Claim('groups', 'The claim (a list of names) that group_mappings read'),
    allow_http: Type.Boolean({
      default: false,
      description: 'Lab only: lets the issuer be plain http (it must be https otherwise)',
    }),
  },
  { additionalProperties: false },
);
export type OidcSettings = Static<typeof OidcSettingsSchema>;
