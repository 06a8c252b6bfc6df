import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { isRecordNotFound } from '@platform/errors';
import { testConfig } from '../../test/harness';
import { ALL_USERS_GROUP_ID } from '../domain';
import { MIGRATIONS_DIR } from '../migrations';
// The data layer's public face, as repositories import it.
import {
  isForeignKeyViolation,
  isUniqueViolation,
  openDatabase,
  orNullWhenMissing,
  qualified,
  runStatement,
  toDatabaseError,
  type Database,
} from '.';

let testDatabase: TestDatabase;
let database: Database;
beforeAll(async () => {
  testDatabase = await createTestDatabase({ schema: 'workspace', migrationsDir: MIGRATIONS_DIR });
  database = openDatabase(testConfig(testDatabase.url));
});
afterAll(async () => {
  await database.close();
  await testDatabase.drop();
});

// The system group All Users exists from the first migration: inserting its name again collides.
const duplicateGroup = () => ({
  name: 'test_duplicate_group',
  text: `INSERT INTO ${qualified('workspace', 'group')} (id, name, updated_at)
         VALUES (gen_random_uuid(), 'All Users', now())`,
  values: [],
});
const rejection = (work: Promise<unknown>) =>
  work.then(
    () => Promise.reject(new Error('the statement was expected to fail')),
    (error: unknown) => error,
  );

describe('one unique-violation mapping for every path', () => {
  it.each([
    ['the Prisma model API', () => database.prisma.group.create({ data: { name: 'All Users' } })],
    ['Prisma raw SQL', () => database.prisma.$executeRawUnsafe(duplicateGroup().text)],
    ['a prepared statement on the pool', () => runStatement(database, duplicateGroup())],
    [
      'a statement inside a transaction',
      () => database.transaction((tx) => runStatement(database, duplicateGroup(), tx)),
    ],
  ])('recognises a duplicate from %s', async (_path, write) => {
    expect(isUniqueViolation(await rejection(write()))).toBe(true);
  });

  it('does not take other failures for duplicates', async () => {
    const error = await rejection(runStatement(database, { text: 'SELECT 1/0', values: [] }));
    expect(isUniqueViolation(error)).toBe(false);
    expect(isUniqueViolation(new Error('x'))).toBe(false);
  });
});

// A membership of a user that does not exist: the foreign key to user refuses it.
const strayMember = () => ({
  text: `INSERT INTO ${qualified('workspace', 'user_group')} (user_id, group_id)
         VALUES (gen_random_uuid(), $1::uuid)`,
  values: [ALL_USERS_GROUP_ID],
});
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

describe('one foreign-key-violation mapping for every path', () => {
  it.each([
    [
      'the Prisma model API',
      () =>
        database.prisma.userGroup.create({
          data: { userId: NO_SUCH_ID, groupId: ALL_USERS_GROUP_ID },
        }),
    ],
    ['a prepared statement on the pool', () => runStatement(database, strayMember())],
    [
      'a statement inside a transaction',
      () => database.transaction((tx) => runStatement(database, strayMember(), tx)),
    ],
  ])('recognises a missing referenced row from %s', async (_path, write) => {
    const error = await rejection(write());
    expect(isForeignKeyViolation(error)).toBe(true);
    expect(isUniqueViolation(error)).toBe(false);
  });

  it('does not take a duplicate for a foreign-key violation', async () => {
    expect(isForeignKeyViolation(await rejection(runStatement(database, duplicateGroup())))).toBe(
      false,
    );
  });
});

describe('the not-found mapping', () => {
  it('turns an update of a missing row into null and lets other failures through', async () => {
    const missing = database.prisma.group.update({
      where: { id: NO_SUCH_ID },
      data: { description: 'x' },
    });
    expect(isRecordNotFound(await rejection(missing))).toBe(true);
    await expect(
      orNullWhenMissing(
        database.prisma.group.update({ where: { id: NO_SUCH_ID }, data: { description: 'x' } }),
      ),
    ).resolves.toBeNull();
    const duplicate = database.prisma.group.create({ data: { name: 'All Users' } });
    expect(isUniqueViolation(await rejection(orNullWhenMissing(duplicate)))).toBe(true);
  });
});

describe('the outage mapping', () => {
  it('turns an unreachable database into 503 UNAVAILABLE and leaves other errors as they are', async () => {
    const down = openDatabase(
      testConfig('postgres://postgres@127.0.0.1:1/none', { DATABASE_TIMEOUT_MS: '2000' }),
    );
    try {
      const error = await rejection(runStatement(down, { text: 'SELECT 1', values: [] }));
      expect(error).toMatchObject({ code: 'UNAVAILABLE', statusCode: 503 });
    } finally {
      await down.close();
    }
    const other = new Error('something else');
    expect(toDatabaseError(other)).toBe(other);
  });

  it('shares one pool between Prisma and prepared statements', async () => {
    const [viaPool] = await runStatement<{ n: number }>(database, {
      name: 'test_count_groups',
      text: `SELECT count(*)::int AS n FROM ${qualified('workspace', 'group')}`,
      values: [],
    });
    expect(viaPool.n).toBe(await database.prisma.group.count());
    expect(database.pool.totalCount).toBeGreaterThan(0);
  });
});
