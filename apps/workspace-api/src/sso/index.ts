// The sso feature's public face: identity providers (OpenID Connect, LDAP, SAML) and signing in through them.
export type { OidcPending } from './oidc-client';
export type { SamlLogoutMessage, SamlPending } from './saml-client';
export { createSamlAssertionsRepository } from './saml-assertions.repository';
export { createSsoRepository, type SsoProviderRow, type SsoRepository } from './sso.repository';
export { createSsoService, type OfferedProvider, type SsoService } from './sso.service';
export { createSsoSignIn, type SignInOrigin } from './sso-sign-in';
export { isCredentialsRefusal, isSsoRefusal } from './sso-refusal';
export { isSsoKind, SSO_KIND_NAMES, SSO_KINDS, type SsoKind } from './sso-kinds';
export {
  createSsoConfigService,
  type SsoConfigService,
  type SsoProviderResponse,
  toSsoProviderResponse,
} from './sso-config.service';
export { ssoConfigRoutes } from './sso-config.routes';
export {
  canonical,
  kindBlocks,
  type ProviderConfig,
  settingsProblems,
  SsoProviderFields,
} from './sso-config';
