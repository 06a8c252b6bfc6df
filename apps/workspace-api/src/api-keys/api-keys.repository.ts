import { qualified, runStatement, type AuditedTransaction, type Database, type Tx } from '../db';
import type { ApiKey } from '../generated/prisma/client';

export type ApiKeyRow = ApiKey;
export type NewApiKeyRow = Pick<
  ApiKey,
  'name' | 'key' | 'secretHash' | 'permissions' | 'readOnly' | 'expiresAt'
>;

export interface CacheListeners {
  txid: string;
  listeners: number[];
}

/**
 * Every query of API keys. The lookup of every authenticated request (when the key cache does
 * not hold the key) runs prepared on the pool; the rest through Prisma.
 */
export function createApiKeysRepository(database: Database) {
  const { prisma, schema } = database;
  const byKey = {
    name: 'api_keys_find_by_key',
    text: `SELECT id, name, key, secret_hash AS "secretHash", permissions, read_only AS "readOnly",
             expires_at AS "expiresAt", revoked_at AS "revokedAt", created_at AS "createdAt",
             updated_at AS "updatedAt"
           FROM ${qualified(schema, 'api_key')} WHERE key = $1`,
  };
  const transaction: AuditedTransaction = (work, options) => database.transaction(work, options);
  return {
    /** With `audit`, the API write's event commits or rolls back with the work. */
    transaction,

    async findByKey(key: string): Promise<ApiKeyRow | null> {
      const [row] = await runStatement<ApiKeyRow>(database, { ...byKey, values: [key] });
      return row ?? null;
    },

    find: (where: { id: string } | { key: string }, tx?: Tx) =>
      (tx ?? prisma).apiKey.findUnique({ where }),

    create: (data: NewApiKeyRow, tx?: Tx) => (tx ?? prisma).apiKey.create({ data }),

    list: () => prisma.apiKey.findMany({ orderBy: { createdAt: 'asc' } }),

    revoke: (id: string, tx?: Tx) =>
      (tx ?? prisma).apiKey.update({ where: { id }, data: { revokedAt: new Date() } }),

    /**
     * The transaction's id and the backends whose API key caches listen (by their
     * application_name): the revocation fence waits until each has acknowledged the transaction.
     */
    async listenersOf(tx: Tx, applicationName: string): Promise<CacheListeners> {
      const [mark] = await tx.$queryRaw<CacheListeners[]>`
        SELECT pg_current_xact_id()::text AS txid,
               coalesce(array_agg(pid), '{}') AS listeners
        FROM pg_stat_activity
        WHERE application_name = ${applicationName} AND datname = current_database()`;
      return mark;
    },

    /**
     * Runs `work` only while no key exists, in a transaction. Its advisory lock makes it safe
     * when several replicas start at once: exactly one sees an empty table.
     */
    whileEmpty<T>(work: (tx: Tx) => Promise<T>): Promise<T | null> {
      return database.transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('workspace-api:first-admin-key'))`;
        return (await tx.apiKey.count()) > 0 ? null : work(tx);
      });
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
