import { SsoProviderNotFoundError } from '../errors';
import type { Login } from '../logins';
import {
  checkLogoutRequest,
  checkSamlResponse,
  samlMetadata,
  startSamlSignIn,
  type SamlLogoutMessage,
  type SamlPending,
} from './saml-client';
import type { SamlAssertionsRepository } from './saml-assertions.repository';
import type { SamlSettings } from './saml-settings';
import { isSsoRefusal, ssoRefusal } from './sso-refusal';
import type { SignInOrigin, SsoSignIn } from './sso-sign-in';
import type { SsoProviderRow, SsoRepository } from './sso.repository';

/**
 * Signing in through a SAML 2.0 identity provider (SP-initiated): an AuthnRequest by redirect,
 * the provider's Response posted back and checked (signature, issuer, time, audience), its
 * assertion spent once, answering the request this browser started; then the same sign-in as
 * every kind's (createSsoSignIn).
 */
export function createSamlSignIns(deps: {
  sso: Pick<SsoRepository, 'byName'>;
  assertions: SamlAssertionsRepository;
  signIn: SsoSignIn;
  /** Ends every login and session grant of the provider's subject (as OIDC's back-channel logout). */
  signOut: (provider: SsoProviderRow, subject: string, origin: SignInOrigin) => Promise<void>;
  /** The provider's settings when they still match the saml schema (defaults filled). */
  settingsOf: (provider: SsoProviderRow) => SamlSettings | null;
}) {
  const { sso, assertions, signIn } = deps;

  async function samlProvider(name: string) {
    const provider = await sso.byName(name);
    const settings = provider?.enabled ? deps.settingsOf(provider) : null;
    if (!provider || !settings) throw new SsoProviderNotFoundError(name);
    return { provider, settings };
  }
  const refusedBy = (provider: SsoProviderRow, origin: SignInOrigin) => (error: unknown) =>
    isSsoRefusal(error) ? signIn.refused(provider, error, origin) : Promise.reject(error);

  return {
    /** Whether `name` is an enabled SAML provider (the sign-in link then starts a SAML sign-in). */
    async offers(name: string): Promise<boolean> {
      const provider = await sso.byName(name);
      return provider?.kind === 'saml' && provider.enabled;
    },

    async start(name: string, acsUrl: string, origin: SignInOrigin, next?: string) {
      const { provider, settings } = await samlProvider(name);
      return startSamlSignIn(settings, acsUrl, name, next).catch(refusedBy(provider, origin));
    },

    /** The provider posted its Response: `pending` is what this browser kept (null: nothing). */
    async finish(
      name: string,
      pending: SamlPending | null,
      samlResponse: string,
      acsUrl: string,
      origin: SignInOrigin,
    ): Promise<Login> {
      const { provider, settings } = await samlProvider(name);
      const identity = await (async () => {
        if (!pending || pending.provider !== name)
          throw ssoRefusal('SSO_STATE_MISMATCH', 'no sign-in under way in this browser');
        const checked = await checkSamlResponse(settings, acsUrl, samlResponse);
        const { assertionId, expiresAt, inResponseTo } = checked.confirmation;
        if (!(await assertions.spend(provider.id, assertionId, expiresAt)))
          throw ssoRefusal('SSO_SAML_REPLAYED', `assertion ${assertionId} was seen before`);
        const answered = [inResponseTo, checked.answers].filter((id) => id !== null);
        if (answered.length === 0 || answered.some((id) => id !== pending.requestId))
          throw ssoRefusal(
            'SSO_SAML_IN_RESPONSE_TO',
            `InResponseTo ${answered.join(', ') || 'missing'}, not ${pending.requestId}`,
          );
        return checked.identity;
      })().catch(refusedBy(provider, origin));
      return signIn.complete(provider, identity, origin);
    },

    /**
     * Single logout from the provider (where `slo_url` is set): the NameID it signs out loses
     * every login here; the LogoutResponse's URL at the provider is returned.
     */
    async logout(
      name: string,
      message: SamlLogoutMessage,
      query: string | null,
      acsUrl: string,
      origin: SignInOrigin,
    ): Promise<string> {
      const { provider, settings } = await samlProvider(name);
      if (!settings.slo_url) throw new SsoProviderNotFoundError(name);
      const request = await checkLogoutRequest(settings, acsUrl, message, query).catch(
        refusedBy(provider, origin),
      );
      await deps.signOut(provider, request.nameId, origin);
      return request.respond();
    },

    /** SP metadata: entity ID, ACS URL (HTTP-POST), NameID format, signed assertions wanted. */
    async metadata(name: string, acsUrl: string): Promise<string> {
      return samlMetadata((await samlProvider(name)).settings, acsUrl);
    },
  };
}
export type SamlSignIns = ReturnType<typeof createSamlSignIns>;
