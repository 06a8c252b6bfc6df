import { hashSecret, randomSecret } from '@platform/secrets';
import type { Db } from '../db';
import { TokenInvalidError, TokenNotFoundError } from '../errors';
import type { ApiToken } from '../generated/prisma/client';

export interface IssuedToken {
  apiToken: ApiToken;
  /** Shown once; only its SHA-256 is stored. */
  token: string;
}

// The prefix lets secret scanners and people recognise a leaked token.
const newToken = () => `cal_${randomSecret(32)}`;

export function createTokensService({ db }: { db: Db }) {
  return {
    async create(name: string): Promise<IssuedToken> {
      const token = newToken();
      return {
        apiToken: await db.apiToken.create({ data: { name, tokenHash: hashSecret(token) } }),
        token,
      };
    },

    /** One indexed lookup per request, so a revocation holds from the very next request. */
    async verify(token: string): Promise<ApiToken> {
      const found = await db.apiToken.findUnique({ where: { tokenHash: hashSecret(token) } });
      if (!found || found.revokedAt) throw new TokenInvalidError();
      return found;
    },

    list(): Promise<ApiToken[]> {
      return db.apiToken.findMany({ orderBy: { id: 'asc' } });
    },

    /** Revoking twice is harmless: the first revocation time stays. */
    async revoke(id: number): Promise<ApiToken> {
      const found = await db.apiToken.findUnique({ where: { id } });
      if (!found) throw new TokenNotFoundError(String(id));
      if (found.revokedAt) return found;
      return db.apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
    },

    /**
     * Issues the first token of a database that has none. The transaction-scoped advisory lock
     * makes it safe when several replicas run setup at once: exactly one issues it.
     */
    async createFirst(): Promise<IssuedToken | null> {
      return db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('calendar-api:first-token'))`;
        if ((await tx.apiToken.count()) > 0) return null;
        const token = newToken();
        const apiToken = await tx.apiToken.create({
          data: { name: 'first token', tokenHash: hashSecret(token) },
        });
        return { apiToken, token };
      });
    },
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
