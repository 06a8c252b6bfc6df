import { qualified, runStatement, type Database } from '../db';
import type { ApiToken } from '../generated/prisma/client';
import type { TokenScope } from './token-rules';

export type { ApiToken };

export interface NewToken {
  name: string;
  tokenHash: string;
  scope: TokenScope;
  expiresAt: Date | null;
}

/**
 * Every query of api_token. The lookup of every request that needs a token runs prepared on the
 * pool; the rest through Prisma.
 */
export function createTokensRepository(db: Database) {
  const tokens = db.prisma.apiToken;
  const byHash = {
    name: 'tokens_find_by_hash',
    text: `SELECT id, name, token_hash AS "tokenHash", scope, expires_at AS "expiresAt",
             revoked_at AS "revokedAt", created_at AS "createdAt", updated_at AS "updatedAt"
           FROM ${qualified(db.schema, 'api_token')} WHERE token_hash = $1`,
  };
  return {
    create: (data: NewToken) => tokens.create({ data }),
    async findByHash(tokenHash: string): Promise<ApiToken | null> {
      const [row] = await runStatement<ApiToken>(db, { ...byHash, values: [tokenHash] });
      return row ?? null;
    },
    find: (id: number) => tokens.findUnique({ where: { id } }),
    list: () => tokens.findMany({ orderBy: { id: 'asc' } }),
    revoke: (id: number) => tokens.update({ where: { id }, data: { revokedAt: new Date() } }),

    /**
     * Creates a token only in a database that has none. The transaction-scoped advisory lock
     * makes it safe when several replicas run setup at once: exactly one creates it.
     */
    createFirst(data: NewToken): Promise<ApiToken | null> {
      return db.transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('calendar-api:first-token'))`;
        if ((await tx.apiToken.count()) > 0) return null;
        return tx.apiToken.create({ data });
      });
    },
  };
}
