import { randomBytes } from 'node:crypto';
import { withFieldErrors } from '@platform/errors';
import { hashSecret, randomSecret, secretMatches } from '@platform/secrets';
import {
  ApiKeyExpiryPastError,
  ApiKeyNotFoundError,
  CredentialsExpiredError,
  CredentialsInvalidError,
  ForbiddenError,
} from '../errors';
import { recordedChange, recordedUpdate, type AuditRecorder, type Tx } from '../db';
import type { ApiKeyCache } from './api-key-cache';
import type { ApiKeyFence } from './api-key-fence';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository';
import { toApiKeyResponse } from './api-keys.schemas';
import type { Credentials } from './credentials';
import {
  grantProblems,
  permissionsLacking,
  type Grantor,
  type KeyGrant,
  type Permission,
} from './permissions';

export interface NewApiKey {
  name: string;
  permissions: Permission[];
  readOnly?: boolean;
  expiresAt?: Date | null;
}

export interface IssuedApiKey {
  apiKey: ApiKeyRow;
  /** Shown once; only its hash is stored. */
  secret: string;
}

// Compared against when the key is unknown, so that both failures cost the same.
const UNKNOWN_KEY_HASH = hashSecret(randomSecret());

function newKey(input: NewApiKey) {
  const secret = randomSecret(32);
  const data = {
    name: input.name,
    key: randomBytes(12).toString('hex'),
    secretHash: hashSecret(secret),
    permissions: [...new Set(input.permissions)],
    readOnly: input.readOnly ?? false,
    expiresAt: input.expiresAt ?? null,
  };
  return { secret, data };
}

export interface ApiKeysDeps {
  keys: ApiKeysRepository;
  /** Verified keys in memory (servers); without it every request looks its key up. */
  cache?: ApiKeyCache;
  /** Makes a revocation wait until every replica's cache has dropped the key. */
  fence?: ApiKeyFence;
}

export function createApiKeysService({ keys, cache, fence }: ApiKeysDeps) {
  return {
    /**
     * Refuses an expiry already past (API and CLI alike): such a key could never be used. Issued
     * by another key (`grantor`; the CLI has none), the new key may not outrank or outlive it.
     * With `audit`, the API's event is written in the key's transaction.
     */
    async issue(
      input: NewApiKey,
      grantor?: Grantor,
      audit?: AuditRecorder | null,
    ): Promise<IssuedApiKey> {
      if (input.expiresAt && input.expiresAt.getTime() <= Date.now())
        throw new ApiKeyExpiryPastError(input.expiresAt.toISOString());
      const problems = grantor
        ? grantProblems(grantor, {
            permissions: input.permissions,
            readOnly: input.readOnly ?? false,
            expiresAt: input.expiresAt ?? null,
          })
        : [];
      if (problems.length > 0) {
        const detail = problems.map((p) => p.message).join('; ');
        throw withFieldErrors(new ForbiddenError(detail), problems);
      }
      const { secret, data } = newKey(input);
      const apiKey = await recordedChange(keys.transaction, audit, {
        change: (tx) => keys.create(data, tx),
        after: (_tx, key) => toApiKeyResponse(key),
      });
      return { apiKey, secret };
    },

    /**
     * A SHA-256 comparison, and an indexed lookup unless the cache holds the key. The cache
     * remembers only keys whose secret matched; revocation reaches it before the next request.
     */
    async verify({ key, secret }: Credentials): Promise<ApiKeyRow> {
      const cached = key ? cache?.get(key) : undefined;
      const epoch = cache?.epoch() ?? 0;
      const found = cached ?? (key ? await keys.findByKey(key) : null);
      const matches = secretMatches(secret, found?.secretHash ?? UNKNOWN_KEY_HASH);
      if (!found || !matches || found.revokedAt) throw new CredentialsInvalidError();
      if (found.expiresAt && found.expiresAt.getTime() <= Date.now())
        throw new CredentialsExpiredError();
      if (!cached) cache?.remember(found, epoch);
      return found;
    },

    list(): Promise<ApiKeyRow[]> {
      return keys.list();
    },

    /**
     * Revokes by id or by public key; revoking twice is harmless. Asked by another key
     * (`revoker`; the CLI has none), only a key holding no more than it may be revoked, so that
     * a key manager cannot lock the administrators' keys out. With `audit`, the API's event is
     * written in the revocation's transaction (a key revoked already is not changed again).
     */
    async revoke(
      idOrKey: { id: string } | { key: string },
      revoker?: KeyGrant,
      audit?: AuditRecorder | null,
    ): Promise<ApiKeyRow> {
      const found = await keys.find(idOrKey);
      if (!found) throw new ApiKeyNotFoundError('id' in idOrKey ? idOrKey.id : idOrKey.key);
      const lacking = revoker ? permissionsLacking(revoker, found.permissions) : [];
      if (lacking.length > 0) {
        throw new ForbiddenError(
          `This API key may not revoke a key holding permissions it lacks: ${lacking.join(', ')}`,
        );
      }
      if (found.revokedAt) return found;
      const snapshot = async (tx: Tx) => {
        const key = await keys.find({ id: found.id }, tx);
        return key && toApiKeyResponse(key);
      };
      return recordedUpdate(fence ? fence.change : keys.transaction, audit, snapshot, (tx) =>
        keys.revoke(found.id, tx),
      );
    },

    /** On a database without keys, issues the first global_admin key (once, however many replicas start). */
    /** `recordIn` joins the key's transaction: the key is issued only with its audit event. */
    async issueFirstAdminKey(
      recordIn: (tx: Tx, apiKey: ApiKeyRow) => Promise<void> = async () => undefined,
    ): Promise<IssuedApiKey | null> {
      return keys.whileEmpty(async (tx) => {
        const { secret, data } = newKey({ name: 'first admin key', permissions: ['global_admin'] });
        const apiKey = await keys.create(data, tx);
        await recordIn(tx, apiKey);
        return { apiKey, secret };
      });
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
