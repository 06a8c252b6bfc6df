import type { TSchema } from '@sinclair/typebox';
import type { FieldProblem } from '@platform/errors';
import { checkOidcSettings } from './oidc-checks';
import { LdapSettingsSchema } from './ldap-settings';
import { OidcSettingsSchema } from './oidc-settings';
import { SamlSettingsSchema } from './saml-settings';

/**
 * The kinds of identity provider: each names its settings schema, the realm of the users it
 * makes, and how the sign-in page offers it. A new kind (LDAP, SAML) is one more entry here, its
 * settings schema, and the routes or password check that turn its answer into a
 * DirectoryIdentity for createSsoSignIn (and, optionally, its configuration checks).
 */
export const SSO_KINDS = {
  oidc: {
    realm: 'oidc',
    settings: OidcSettingsSchema,
    /** A "Sign in with …" button that leaves for the provider. */
    offered: 'button',
    check: checkOidcSettings,
  },
  ldap: {
    realm: 'ldap',
    settings: LdapSettingsSchema,
    /** The sign-in page's own username and password form: no page of the directory's. */
    offered: 'password-form',
  },
  saml: {
    realm: 'saml',
    settings: SamlSettingsSchema,
    /** A "Sign in with …" button that sends an AuthnRequest to the provider. */
    offered: 'button',
  },
} as const satisfies Record<
  string,
  {
    realm: string;
    settings: TSchema;
    offered: 'button' | 'password-form';
    /**
     * What "test this configuration" checks beyond the schema (the provider reached, its
     * answer consistent). It gets the settings with defaults filled, less any that break the
     * schema (those are reported already): it checks what is there. Fields are relative to the
     * settings block. Optional: secrets and group mappings are checked for every kind.
     */
    check?: (settings: never) => Promise<FieldProblem[]>;
  }
>;

export type SsoKind = keyof typeof SSO_KINDS;
export const SSO_KIND_NAMES = Object.keys(SSO_KINDS) as SsoKind[];

/** Whether a name (from a request, a file or a row) is a kind: its own keys only, never `valueOf`. */
export const isSsoKind = (name: string): name is SsoKind => Object.hasOwn(SSO_KINDS, name);
