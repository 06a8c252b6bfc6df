import { Type, type Static } from '@sinclair/typebox';

const Attribute = (fallback: string, description: string) =>
  Type.String({ pattern: '^[A-Za-z][A-Za-z0-9-]*$', maxLength: 64, default: fallback, description });

/** An LDAP directory's settings: its `ldap:` block in the settings file. */
export const LdapSettingsSchema = Type.Object(
  {
    url: Type.String({
      pattern: '^ldaps?://[^\\s/]+/?$',
      maxLength: 300,
      description: 'ldaps://host:636, or ldap://host:389 with start_tls (or allow_plain, lab only)',
    }),
    start_tls: Type.Boolean({ default: false, description: 'StartTLS on an ldap:// URL' }),
    allow_plain: Type.Boolean({
      default: false,
      description: 'Lab only: lets passwords cross an ldap:// URL without StartTLS',
    }),
    ca_file: Type.Optional(
      Type.String({
        pattern: '^/',
        maxLength: 1024,
        description: "The CA certificate (PEM) the directory's certificate is checked against",
      }),
    ),
    user_dn: Type.String({
      pattern: '\\{username\\}',
      maxLength: 500,
      description: 'The DN to bind as, {username} replaced (escaped): uid={username},ou=people,…',
    }),
    base_dn: Type.String({ minLength: 1, maxLength: 500, description: 'Where the search looks' }),
    filter: Type.String({
      pattern: '^\\(.*\\{username\\}.*\\)$',
      maxLength: 500,
      default: '(uid={username})',
      description: 'The search for the user, {username} replaced (escaped, RFC 4515)',
    }),
    username_attribute: Attribute('uid', "The attribute that is the user's username"),
    first_name_attribute: Attribute('givenName', 'The attribute mapped to first_name'),
    last_name_attribute: Attribute('sn', 'The attribute mapped to last_name'),
    phone_attribute: Attribute('telephoneNumber', 'The attribute mapped to phone'),
    organization_attribute: Attribute('o', 'The attribute mapped to organization'),
    groups_attribute: Attribute(
      'memberOf',
      "The user's attribute that group_mappings read; a DN counts by its first value (cn=devs,… is devs)",
    ),
    group_base_dn: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Also search groups here: entries whose member (or uniqueMember) is the user, by cn',
      }),
    ),
    timeout_seconds: Type.Integer({ minimum: 1, maximum: 60, default: 10 }),
  },
  { additionalProperties: false },
);
export type LdapSettings = Static<typeof LdapSettingsSchema>;
