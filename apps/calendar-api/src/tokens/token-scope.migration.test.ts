import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { MIGRATIONS_DIR } from '../migrations';

const SCOPES = '20261226060000_token_scope_feed_address';

let database: TestDatabase;
let before: string;
beforeAll(async () => {
  // A database as it was before scopes existed: every migration up to the one that adds them.
  before = await mkdtemp(path.join(tmpdir(), 'calendar-migrations-'));
  for (const name of (await readdir(MIGRATIONS_DIR)).filter((n) => n < SCOPES)) {
    await cp(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
  }
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: before });
});
afterAll(async () => {
  await database.drop();
  await rm(before, { recursive: true, force: true });
});

describe(`migration ${SCOPES}`, () => {
  it('makes every existing token a write token that never expires, and new ones state a scope', async () => {
    await database.query(
      `INSERT INTO calendar.api_token (name, token_hash, revoked_at, updated_at)
       VALUES ('ci', repeat('a', 64), NULL, now()), ('old', repeat('b', 64), now(), now())`,
    );
    const { applied } = await migrate({
      connectionString: database.url,
      schema: 'calendar',
      migrationsDir: MIGRATIONS_DIR,
    });
    expect(applied).toContain(SCOPES);
    expect(
      await database.query('SELECT name, scope, expires_at FROM calendar.api_token ORDER BY id'),
    ).toEqual([
      { name: 'ci', scope: 'write', expires_at: null },
      { name: 'old', scope: 'write', expires_at: null },
    ]);
    await expect(
      database.query(
        `INSERT INTO calendar.api_token (name, token_hash, updated_at) VALUES ('x', repeat('c', 64), now())`,
      ),
    ).rejects.toThrow(/null value in column "scope"/);
    await expect(
      database.query(
        `INSERT INTO calendar.api_token (name, token_hash, scope, updated_at) VALUES ('x', repeat('c', 64), 'admin', now())`,
      ),
    ).rejects.toThrow(/api_token_scope_check/);
  });
});
