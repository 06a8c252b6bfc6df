import { readFileSync } from 'node:fs';
import path from 'node:path';
import { migrate } from '@platform/db';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { MIGRATIONS_DIR } from './migrations';

// ingest_chat_message has one source file; migrations created it too before it had one.
const SOURCE = readFileSync(
  path.join(MIGRATIONS_DIR, '../functions/ingest_chat_message.sql'),
  'utf8',
);
const body = (sql: string) => sql.split('$$')[1];

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
});
afterAll(() => database?.drop());

const installed = async () =>
  (
    await database.query<{ prosrc: string }>(
      `SELECT prosrc FROM pg_proc WHERE proname = 'ingest_chat_message'
         AND pronamespace = 'calendar'::regnamespace`,
    )
  ).map((r) => r.prosrc);

describe('the calendar schema migrated', () => {
  it('ends with ingest_chat_message as its source file has it, on a fresh database', async () => {
    expect(body(SOURCE)).toContain('stale');
    expect(await installed()).toEqual([body(SOURCE)]);
  });

  it('replaces the function a database migrated before the source file has, and applies no migration again', async () => {
    // As such a database is: the migrations' function (here told apart by a comment), no record.
    await database.query('DROP TABLE calendar._sql_functions');
    const before = SOURCE.replace('BEGIN\n', 'BEGIN\n    -- as migrated before\n');
    await database.query(`SET search_path TO calendar; ${before}`);
    expect((await installed())[0]).toContain('as migrated before');

    const result = await migrate({
      connectionString: database.url,
      schema: 'calendar',
      migrationsDir: MIGRATIONS_DIR,
    });

    expect(result.applied).toEqual([]);
    expect(result.functions).toEqual(['ingest_chat_message.sql']);
    expect(await installed()).toEqual([body(SOURCE)]);
  });
});
