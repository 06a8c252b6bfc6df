import type { TSchema } from '@sinclair/typebox';
import { OidcSettingsSchema } from './oidc-settings';
import { LdapSettingsSchema } from './ldap-settings';

/**
 * The kinds of identity provider: each names its settings block (the file's `oidc:`, `ldap:`),
 * the realm of the users it makes, and how the sign-in page offers it. A new kind (SAML) is one
 * more entry here, its settings schema and its sign-in routes.
 */
export const SSO_KINDS = {
  oidc: {
    realm: 'oidc',
    settings: OidcSettingsSchema,
    /** A "Sign in with …" button that leaves for the provider. */
    offered: 'button',
  },
  ldap: {
    realm: 'ldap',
    settings: LdapSettingsSchema,
    /** The username and password form: the directory checks the password. */
    offered: 'password-form',
  },
} as const satisfies Record<
  string,
  { realm: string; settings: TSchema; offered: 'button' | 'password-form' }
>;

export type SsoKind = keyof typeof SSO_KINDS;
export const SSO_KIND_NAMES = Object.keys(SSO_KINDS) as SsoKind[];
