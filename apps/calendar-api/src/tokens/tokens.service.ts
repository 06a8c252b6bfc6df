import { hashSecret, randomSecret } from '@platform/secrets';
import type { Database } from '../db';
import { TokenInvalidError, TokenNotFoundError, TokenRequestInvalidError } from '../errors';
import { expiryProblem, isTokenScope, tokenState } from './token-rules';
import { createTokensRepository, type ApiToken } from './tokens.repository';

export interface IssuedToken {
  apiToken: ApiToken;
  /** Shown once; only its SHA-256 is stored. */
  token: string;
}

export interface TokenGrant {
  /** Defaults to write, what every token could do before scopes existed. */
  scope?: string;
  /** null or absent: the token does not expire. */
  expiresAt?: Date | null;
}

// The prefix lets secret scanners and people recognise a leaked token.
const newToken = () => `cal_${randomSecret(32)}`;

export function createTokensService({
  db,
  now = () => new Date(),
}: {
  db: Database;
  now?: () => Date;
}) {
  const repository = createTokensRepository(db);

  function checkedGrant({ scope = 'write', expiresAt = null }: TokenGrant) {
    if (!isTokenScope(scope)) {
      throw new TokenRequestInvalidError(`The scope must be read or write, not "${scope}"`);
    }
    const problem = expiresAt && expiryProblem(expiresAt, now());
    if (problem) throw new TokenRequestInvalidError(problem);
    return { scope, expiresAt };
  }

  return {
    async create(name: string, grant: TokenGrant = {}): Promise<IssuedToken> {
      const token = newToken();
      const data = { name, tokenHash: hashSecret(token), ...checkedGrant(grant) };
      return { apiToken: await repository.create(data), token };
    },

    /**
     * One indexed lookup per request, so a revocation holds from the very next request; an
     * expired token is refused exactly like an unknown one.
     */
    async verify(token: string): Promise<ApiToken> {
      const found = await repository.findByHash(hashSecret(token));
      if (!found || tokenState(found, now()) !== 'active') throw new TokenInvalidError();
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
      const apiToken = await repository.createFirst({
        name: 'first token',
        tokenHash: hashSecret(token),
        scope: 'write',
        expiresAt: null,
      });
      return apiToken && { apiToken, token };
    },
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
