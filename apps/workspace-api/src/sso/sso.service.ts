import { Value } from '@sinclair/typebox/value';
import type { AuditTrail } from '../audit';
import { normalizeUsername } from '../domain';
import { SsoProviderNotFoundError } from '../errors';
import type { Login, LoginsService } from '../logins';
import {
  finishOidcSignIn,
  oidcConfiguration,
  startOidcSignIn,
  type OidcPending,
} from './oidc-client';
import { ldapIdentity } from './ldap-client';
import type { LdapSettings } from './ldap-settings';
import { logoutSubject } from './oidc-logout';
import type { OidcSettings } from './oidc-settings';
import type { SamlAssertionsRepository } from './saml-assertions.repository';
import type { SamlSettings } from './saml-settings';
import { createSamlSignIns } from './saml.service';
import { isSsoKind, SSO_KINDS, type SsoKind } from './sso-kinds';
import { isSsoRefusal, ssoRefusal } from './sso-refusal';
import type { SignInOrigin, SsoSignIn } from './sso-sign-in';
import type { SsoProviderRow, SsoRepository } from './sso.repository';
import type { UsersRepository } from '../users';

/** How the sign-in page offers a provider. */
export interface OfferedProvider {
  name: string;
  displayName: string;
}

/** The provider's settings when they still match its kind's schema (defaults filled). */
export function settingsOf<K extends SsoKind>(provider: SsoProviderRow, kind: K) {
  const schema = SSO_KINDS[kind].settings;
  if (provider.kind !== kind) return null;
  const settings = Value.Default(schema, structuredClone(provider.settings));
  return Value.Check(schema, settings) ? settings : null;
}

export function createSsoService({
  sso,
  signIn,
  logins,
  accounts,
  audit,
  samlAssertions,
}: {
  sso: SsoRepository;
  signIn: SsoSignIn;
  /** Whether a username is a local account's (it has a password): the form's choice of path. */
  accounts: Pick<UsersRepository, 'credentialsOf'>;
  samlAssertions: SamlAssertionsRepository;
  logins: Pick<LoginsService, 'revokeUser'>;
  audit: AuditTrail;
}) {
  /** An enabled OpenID Connect provider of that name, its settings and discovered configuration. */
  async function oidcProvider(name: string) {
    const provider = await sso.byName(name);
    const settings = provider?.enabled ? settingsOf(provider, 'oidc') : null;
    if (!provider || !settings) throw new SsoProviderNotFoundError(name);
    const key = `${provider.id}:${provider.updatedAt.getTime()}`;
    return { provider, settings: settings as OidcSettings, key };
  }

  const directories = async () =>
    (await sso.list()).flatMap((provider) => {
      const settings = provider.enabled ? settingsOf(provider, 'ldap') : null;
      return settings ? [{ provider, settings: settings as LdapSettings }] : [];
    });

  /**
   * The directories the sign-in form asks for this username: none for a local account (it has a
   * password) or when none is configured; the one that made a directory user; every enabled one,
   * in name order, for a name no account has.
   */
  async function directoriesFor(username: string) {
    const all = await directories();
    if (all.length === 0) return [];
    const account = await accounts.credentialsOf(normalizeUsername(username));
    if (!account) return all;
    if (account.passwordHash) return [];
    const linked = new Set(await sso.providersOfUser(account.id));
    return all.filter(({ provider }) => linked.has(provider.id));
  }

  /** The provider signed its subject out: the user loses every login and session grant. */
  async function signOut(provider: SsoProviderRow, subject: string, origin: SignInOrigin) {
    const userId = await sso.userOf(provider.id, subject);
    if (!userId) return;
    await logins.revokeUser(userId);
    await audit.record(
      {
        actor: { kind: 'system', name: `sso:${provider.name}` },
        channel: 'sso',
        clientIp: origin.clientIp,
        userAgent: origin.userAgent,
      },
      {
        operation: 'sso_logout',
        target: { type: 'user', id: userId },
        before: null,
        after: null,
      },
    );
  }

  return {
    /** SAML 2.0 providers' sign-ins (saml.service.ts). */
    saml: createSamlSignIns({
      sso,
      assertions: samlAssertions,
      signIn,
      signOut,
      settingsOf: (provider) => settingsOf(provider, 'saml') as SamlSettings | null,
    }),

    /** The enabled providers that the sign-in page offers as buttons, by name. */
    async buttons(): Promise<OfferedProvider[]> {
      return (await sso.list())
        .filter((p) => p.enabled && isSsoKind(p.kind) && SSO_KINDS[p.kind].offered === 'button')
        .map(({ name, displayName }) => ({ name, displayName }));
    },

    /** The enabled directories (LDAP) whose users sign in with the page's own form. */
    async formProviders(): Promise<OfferedProvider[]> {
      return (await directories()).map(({ provider: { name, displayName } }) => ({
        name,
        displayName,
      }));
    },

    /**
     * The page's username and password, to be checked against the directories that apply to
     * the name (directoriesFor); null when none does, and the form signs in locally. A directory
     * that does not know the name hands over to the next one.
     */
    async directorySignIn(
      username: string,
      password: string,
      origin: SignInOrigin,
    ): Promise<(() => Promise<Login>) | null> {
      const candidates = await directoriesFor(username);
      if (candidates.length === 0) return null;
      return async () => {
        let notFound: unknown = null;
        for (const { provider, settings } of candidates) {
          try {
            const identity = await ldapIdentity(settings, username, password).catch(
              (error: unknown) =>
                isSsoRefusal(error)
                  ? signIn.refused(provider, error, origin, username)
                  : Promise.reject(error),
            );
            return await signIn.complete(provider, identity, origin);
          } catch (error) {
            if (!isSsoRefusal(error) || error.reason !== 'SSO_USER_NOT_FOUND') throw error;
            notFound = error;
          }
        }
        throw notFound;
      };
    },

    async startOidc(name: string, redirectUri: string, origin: SignInOrigin, next?: string) {
      const { provider, settings, key } = await oidcProvider(name);
      const config = await oidcConfiguration(key, settings).catch((error: unknown) =>
        isSsoRefusal(error) ? signIn.refused(provider, error, origin) : Promise.reject(error),
      );
      return startOidcSignIn(config, settings, redirectUri, name, next);
    },

    /** The provider sent the user back: `pending` is what the browser kept (null: nothing). */
    async finishOidc(
      name: string,
      pending: OidcPending | null,
      callbackUrl: URL,
      origin: SignInOrigin,
    ): Promise<Login> {
      const { provider, settings, key } = await oidcProvider(name);
      const refused = (error: unknown) =>
        isSsoRefusal(error) ? signIn.refused(provider, error, origin) : Promise.reject(error);
      const identity = await (async () => {
        if (!pending || pending.provider !== name) {
          throw ssoRefusal('SSO_STATE_MISMATCH', 'no sign-in under way in this browser');
        }
        const config = await oidcConfiguration(key, settings);
        return finishOidcSignIn(config, settings, callbackUrl, pending);
      })().catch(refused);
      return signIn.complete(provider, identity, origin);
    },

    /** Back-channel logout: the user the token names loses every login and session grant. */
    async backchannelLogout(name: string, token: string, origin: SignInOrigin): Promise<void> {
      const { provider, settings, key } = await oidcProvider(name);
      const config = await oidcConfiguration(key, settings);
      const subject = await logoutSubject(config, settings.client_id, token).catch(
        (error: unknown) =>
          isSsoRefusal(error) ? signIn.refused(provider, error, origin) : Promise.reject(error),
      );
      await signOut(provider, subject, origin);
    },
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
