import { hashSecret, randomSecret } from '@platform/secrets';
import type { Database } from '../db';
import { TokenInvalidError, TokenNotFoundError } from '../errors';
import { createTokensRepository, type ApiToken } from './tokens.repository';

export interface IssuedToken {
  apiToken: ApiToken;
  /** Shown once; only its SHA-256 is stored. */
  token: string;
}

// The prefix lets secret scanners and people recognise a leaked token.
const newToken = () => `cal_${randomSecret(32)}`;

export function createTokensService({ db }: { db: Database }) {
  const repository = createTokensRepository(db);
  return {
    async create(name: string): Promise<IssuedToken> {
      const token = newToken();
      return { apiToken: await repository.create(name, hashSecret(token)), token };
    },

    /** One indexed lookup per request, so a revocation holds from the very next request. */
    async verify(token: string): Promise<ApiToken> {
      const found = await repository.findByHash(hashSecret(token));
      if (!found || found.revokedAt) throw new TokenInvalidError();
      return found;
    },

    list: (): Promise<ApiToken[]> => repository.list(),

    /** Revoking twice is harmless: the first revocation time stays. */
    async revoke(id: number): Promise<ApiToken> {
      const found = await repository.find(id);
      if (!found) throw new TokenNotFoundError(String(id));
      if (found.revokedAt) return found;
      return repository.revoke(id);
    },

    /** Issues the first token of a database that has none (safe with replicas running setup at once). */
    async createFirst(): Promise<IssuedToken | null> {
      const token = newToken();
      const apiToken = await repository.createFirst('first token', hashSecret(token));
      return apiToken && { apiToken, token };
    },
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
