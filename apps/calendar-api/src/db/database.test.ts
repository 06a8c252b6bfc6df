import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { isUniqueViolation } from '@platform/errors';
import { testConfig } from '../../test/harness';
import { MIGRATIONS_DIR } from '../migrations';
import { openDatabase, type Database } from './client';
import { toDatabaseError } from './database-errors';
import { runStatement } from './statements';

let database: TestDatabase;
let db: Database;
const HASH = 'a'.repeat(64);
const insertToken = (name: string) => ({
  name: 'test_insert_token',
  text: `INSERT INTO calendar.api_token (name, token_hash, scope, updated_at) VALUES ($1, $2, 'write', now()) RETURNING id`,
  values: [name, HASH],
});

beforeAll(async () => {
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
  db = openDatabase(testConfig(database.url));
});
afterAll(async () => {
  await db.close();
  await database.drop();
});
beforeEach(async () => {
  await database.truncate();
  await db.prisma.apiToken.create({ data: { name: 'first', tokenHash: HASH, scope: 'write' } });
});

const failureOf = (work: () => Promise<unknown>) =>
  work().then(
    () => {
      throw new Error('expected the statement to fail');
    },
    (error: unknown) => error,
  );

describe('the database errors', () => {
  it('recognises a unique violation from the Prisma model API (P2002)', async () => {
    const error = await failureOf(() =>
      db.prisma.apiToken.create({ data: { name: 'again', tokenHash: HASH, scope: 'write' } }),
    );
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('recognises a unique violation from Prisma raw SQL', async () => {
    const { text, values } = insertToken('again');
    const error = await failureOf(() => db.prisma.$queryRawUnsafe(text, ...values));
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('recognises a unique violation from a statement on the pool (23505)', async () => {
    const error = await failureOf(() => db.pool.query(insertToken('again')));
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('maps a unique violation to 409 CONFLICT, whichever way the statement ran', async () => {
    for (const tx of [null, 'in a transaction'] as const) {
      const error = await failureOf(() =>
        tx === null
          ? runStatement(db, insertToken('again'))
          : db.transaction((t) => runStatement(db, insertToken('again'), t)),
      );
      expect(error).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    }
  });

  it('maps an unreachable database to 503 UNAVAILABLE, and leaves other errors alone', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    expect(toDatabaseError(refused)).toMatchObject({ code: 'UNAVAILABLE', statusCode: 503 });
    const other = new Error('something else');
    expect(toDatabaseError(other)).toBe(other);
    expect(isUniqueViolation(other)).toBe(false);
  });
});

describe('the pool shared with Prisma', () => {
  it('serves both, and a prepared statement answers the same rows inside a transaction', async () => {
    const statement = {
      name: 'test_token_names',
      text: 'SELECT name FROM calendar.api_token ORDER BY id',
      values: [],
    };
    const outside = await runStatement(db, statement);
    const inside = await db.transaction((tx) => runStatement(db, statement, tx));
    expect(outside).toEqual([{ name: 'first' }]);
    expect(inside).toEqual(outside);
  });
});
