import { Type, type Static } from '@sinclair/typebox';
import { SecretRefSchema } from './sso-secrets';

const Attribute = (fallback: string, description: string) =>
  Type.String({ pattern: '^[A-Za-z][A-Za-z0-9-]{0,127}$', default: fallback, description });
const Dn = (description: string) => Type.String({ minLength: 1, maxLength: 1024, description });

/** An LDAP directory's settings: its `ldap:` block in the settings file. */
export const LdapSettingsSchema = Type.Object(
  {
    url: Type.String({
      pattern: '^ldaps?://[^\\s/]+/?$',
      maxLength: 500,
      description: 'ldaps://host:636, or ldap://host:389 with start_tls',
    }),
    start_tls: Type.Boolean({
      default: true,
      description: 'Upgrades an ldap:// connection with StartTLS before any bind',
    }),
    allow_plain: Type.Boolean({
      default: false,
      description: 'Lab only: lets an ldap:// URL be used without StartTLS (passwords in clear)',
    }),
    ca_file: Type.Optional(
      Type.String({
        pattern: '^/',
        maxLength: 1024,
        description:
          "A PEM file of the CAs that sign the directory's certificate (default: the system's)",
      }),
    ),
    bind_dn: Type.Optional(
      Dn('The service account that searches for users; anonymous search when absent'),
    ),
    bind_password: Type.Optional(SecretRefSchema),
    base_dn: Dn('Where users are searched for (subtree)'),
    user_filter: Type.String({
      pattern: '^\\(.*\\{username\\}.*\\)$',
      maxLength: 1000,
      default: '(&(objectClass=inetOrgPerson)(uid={username}))',
      description: 'The search for the user; {username} is replaced by the typed name, escaped',
    }),
    username_attribute: Attribute('uid', "The attribute that is the user's username"),
    subject_attribute: Attribute(
      'entryUUID',
      'A stable id of the entry that links it to its user (objectGUID on Active Directory)',
    ),
    first_name_attribute: Attribute('givenName', 'The attribute mapped to first_name'),
    last_name_attribute: Attribute('sn', 'The attribute mapped to last_name'),
    phone_attribute: Attribute('telephoneNumber', 'The attribute mapped to phone'),
    organization_attribute: Attribute('o', 'The attribute mapped to organization'),
    groups_attribute: Attribute(
      'memberOf',
      "The user's attribute naming their groups' DNs, which group_mappings read",
    ),
    group_search: Type.Optional(
      Type.Object(
        {
          base_dn: Dn('Where groups are searched for (subtree)'),
          filter: Type.String({
            pattern: '^\\(.*\\{dn\\}.*\\)$',
            maxLength: 1000,
            default: '(&(objectClass=groupOfNames)(member={dn}))',
            description: "The groups of the user; {dn} is replaced by the user's DN, escaped",
          }),
        },
        {
          additionalProperties: false,
          description: 'Reads the groups by a search instead of groups_attribute',
        },
      ),
    ),
    timeout_ms: Type.Integer({
      minimum: 500,
      maximum: 60_000,
      default: 10_000,
      description: 'How long a connection and each operation may take',
    }),
  },
  { additionalProperties: false },
);
export type LdapSettings = Static<typeof LdapSettingsSchema>;
