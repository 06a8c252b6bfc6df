import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { hashSecret } from '@platform/secrets';
import { testConfig } from '../../test/harness';
import { openDatabase, type Database } from '../db';
import { MIGRATIONS_DIR } from '../migrations';
import { createTokensService, type TokensService } from './tokens.service';

let database: TestDatabase;
let db: Database;
let tokens: TokensService;
beforeAll(async () => {
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
  db = openDatabase(testConfig(database.url));
  tokens = createTokensService({ db });
});
afterAll(async () => {
  await db.close();
  await database.drop();
});
beforeEach(() => database.truncate());

describe('tokens', () => {
  it('stores only the SHA-256 of a new token', async () => {
    const { apiToken, token } = await tokens.create('ci');
    expect(token).toMatch(/^cal_[A-Za-z0-9_-]{43}$/);
    const rows = await database.query<{ token_hash: string }>(
      'SELECT token_hash FROM calendar.api_token',
    );
    expect(rows).toEqual([{ token_hash: hashSecret(token) }]);
    expect(apiToken).toMatchObject({ name: 'ci', revokedAt: null });
  });

  it('verifies a live token and refuses a revoked or unknown one', async () => {
    const { apiToken, token } = await tokens.create('ci');
    expect((await tokens.verify(token)).id).toBe(apiToken.id);
    await expect(tokens.verify(`${token}x`)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
    await tokens.revoke(apiToken.id);
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('keeps the first revocation time when revoked twice, and lists every token', async () => {
    const { apiToken } = await tokens.create('a');
    await tokens.create('b');
    const first = await tokens.revoke(apiToken.id);
    expect((await tokens.revoke(apiToken.id)).revokedAt).toEqual(first.revokedAt);
    expect((await tokens.list()).map((t) => [t.name, t.revokedAt !== null])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('issues write tokens that never expire unless told otherwise', async () => {
    const { apiToken } = await tokens.create('ci');
    expect(apiToken).toMatchObject({ scope: 'write', expiresAt: null });
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    const reader = await tokens.create('dashboard', { scope: 'read', expiresAt });
    expect(reader.apiToken).toMatchObject({ scope: 'read', expiresAt });
    expect((await tokens.verify(reader.token)).scope).toBe('read');
    expect((await tokens.list()).map((t) => [t.name, t.scope, t.expiresAt])).toEqual([
      ['ci', 'write', null],
      ['dashboard', 'read', expiresAt],
    ]);
  });

  it('refuses an unknown scope, an expiry in the past and one too far away', async () => {
    const day = 86_400_000;
    await expect(tokens.create('x', { scope: 'admin' })).rejects.toMatchObject({
      code: 'TOKEN_REQUEST_INVALID',
      message: 'The scope must be read or write, not "admin"',
    });
    await expect(
      tokens.create('x', { expiresAt: new Date(Date.now() - 1000) }),
    ).rejects.toMatchObject({
      code: 'TOKEN_REQUEST_INVALID',
      message: 'The expiry must be in the future',
    });
    await expect(
      tokens.create('x', { expiresAt: new Date(Date.now() + 367 * day) }),
    ).rejects.toMatchObject({ message: 'The expiry must be at most 366 days away' });
    expect(await tokens.list()).toEqual([]);
  });

  it('refuses a token from the instant it expires', async () => {
    let now = new Date('2026-01-10T12:00:00Z');
    const clocked = createTokensService({ db, now: () => now });
    const expiresAt = new Date('2026-01-11T12:00:00Z');
    const { token } = await clocked.create('ci', { expiresAt });
    expect((await clocked.verify(token)).name).toBe('ci');
    now = expiresAt;
    await expect(clocked.verify(token)).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('refuses to revoke an id that matches no token', async () => {
    await expect(tokens.revoke(999)).rejects.toMatchObject({ code: 'TOKEN_NOT_FOUND' });
  });

  it('issues exactly one first token when several replicas set up at once', async () => {
    const issued = await Promise.all(Array.from({ length: 5 }, () => tokens.createFirst()));
    expect(issued.filter((t) => t !== null)).toHaveLength(1);
    expect(await db.prisma.apiToken.count()).toBe(1);
    expect(await tokens.createFirst()).toBeNull();
  });
});
