import { ValidationFailedError } from '@platform/errors';
import type { AuditContext, AuditTrail } from '../audit';
import type { Tx } from '../db';
import { UsernameTakenError } from '../errors';
import type { GroupsRepository } from '../groups';
import type { Login, LoginsService } from '../logins';
import {
  toUserResponse,
  type DirectoryFields,
  type UsersRepository,
  type UsersService,
} from '../users';
import { isSsoRefusal, ssoRefusal, type SsoRefusal } from './sso-refusal';
import type { SsoProviderRow, SsoRepository } from './sso.repository';
import { SSO_KINDS, type SsoKind } from './sso-kinds';

/** Who a provider says signed in: its stable subject, the user's fields and the groups it names. */
export interface DirectoryIdentity {
  subject: string;
  fields: DirectoryFields;
  groups: string[];
}

/** Where a sign-in comes from, for the login session and the audit trail. */
export interface SignInOrigin {
  address: string;
  clientIp: string;
  userAgent: string | null;
}

/**
 * The groups a sign-in puts the user in and takes them out of: a mapped group is held exactly
 * when the provider names one of its values; groups no mapping names are left alone.
 */
export function groupChanges(
  mappings: SsoProviderRow['mappings'],
  named: readonly string[],
  current: readonly string[],
): { add: string[]; remove: string[] } {
  const names = new Set(named);
  const wanted = new Set(mappings.filter((m) => names.has(m.value)).map((m) => m.groupId));
  const mapped = new Set(mappings.map((m) => m.groupId));
  const held = new Set(current);
  return {
    add: [...wanted].filter((id) => !held.has(id)),
    remove: [...mapped].filter((id) => held.has(id) && !wanted.has(id)),
  };
}

/**
 * Completes a sign-in a provider vouched for: the user made at the first one (the provider's
 * realm), their fields and mapped groups applied at every one, in one transaction; then a login
 * session. Every sign-in and every refusal is in the audit trail (channel `sso`).
 */
export function createSsoSignIn(deps: {
  sso: SsoRepository;
  userRows: Pick<UsersRepository, 'findById'>;
  users: Pick<UsersService, 'provision' | 'applyDirectoryFields'>;
  memberships: Pick<GroupsRepository, 'addMember' | 'removeMember'>;
  logins: Pick<LoginsService, 'startVouchedSession'>;
  audit: AuditTrail;
}) {
  const { sso, userRows, users, memberships, audit } = deps;
  const snapshot = async (userId: string, tx?: Tx) => {
    const row = await userRows.findById(userId, tx);
    return row && toUserResponse(row);
  };
  const contextOf = (origin: SignInOrigin, actor: AuditContext['actor']): AuditContext => ({
    actor,
    channel: 'sso',
    clientIp: origin.clientIp,
    userAgent: origin.userAgent,
  });

  async function upsertUser(provider: SsoProviderRow, identity: DirectoryIdentity, tx: Tx) {
    const known = await sso.userOf(provider.id, identity.subject, tx);
    if (known) {
      const { firstName, lastName, phone, organization } = identity.fields;
      await users.applyDirectoryFields(known, { firstName, lastName, phone, organization }, tx);
      return { userId: known, created: false };
    }
    const realm = SSO_KINDS[provider.kind as SsoKind].realm;
    const userId = await users.provision(identity.fields, realm, tx);
    await sso.link(provider.id, identity.subject, userId, tx);
    return { userId, created: true };
  }

  /** Records a refusal with its reason; rethrows it. */
  async function refused(
    provider: SsoProviderRow | string,
    refusal: SsoRefusal,
    origin: SignInOrigin,
    username?: string,
  ): Promise<never> {
    const name = typeof provider === 'string' ? provider : provider.name;
    await audit.recordRefusal(
      contextOf(origin, { kind: 'system', name: `sso:${name}` }),
      {
        operation: 'sso_sign_in',
        target: { type: 'sso_provider', id: name },
        before: null,
        after: { reason: refusal.message, detail: refusal.detail, username: username ?? null },
      },
      { result: 'denied', status: refusal.statusCode, errorCode: refusal.reason },
    );
    throw refusal;
  }

  async function complete(
    provider: SsoProviderRow,
    identity: DirectoryIdentity,
    origin: SignInOrigin,
  ): Promise<Login> {
    const { userId, before, after } = await sso
      .transaction(async (tx) => {
        const { userId, created } = await upsertUser(provider, identity, tx);
        const before = created ? null : await snapshot(userId, tx);
        const current = (await userRows.findById(userId, tx))?.groups.map((g) => g.id) ?? [];
        const change = groupChanges(provider.mappings, identity.groups, current);
        for (const groupId of change.add) await memberships.addMember(userId, groupId, tx);
        for (const groupId of change.remove) await memberships.removeMember(userId, groupId, tx);
        return { userId, before, after: await snapshot(userId, tx) };
      })
      .catch((error: unknown) => {
        if (error instanceof UsernameTakenError) throw ssoRefusal('SSO_USERNAME_TAKEN');
        if (error instanceof ValidationFailedError)
          throw ssoRefusal('SSO_USERNAME_INVALID', error.message);
        throw error;
      })
      .catch((error: unknown) =>
        isSsoRefusal(error)
          ? refused(provider, error, origin, identity.fields.username)
          : Promise.reject(error),
      );
    const login = await deps.logins
      .startVouchedSession(userId, origin.address)
      .catch(() =>
        refused(provider, ssoRefusal('SSO_ACCOUNT_REFUSED'), origin, identity.fields.username),
      );
    await audit.record(
      contextOf(origin, { kind: 'user', id: userId, username: login.user.username }),
      {
        operation: 'sso_sign_in',
        target: { type: 'user', id: userId },
        before,
        after: { ...after, provider: provider.name },
      },
    );
    return login;
  }

  return { complete, refused };
}
export type SsoSignIn = ReturnType<typeof createSsoSignIn>;
