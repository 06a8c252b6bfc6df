import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from './test-database';

let dir: string;
let database: TestDatabase;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'snapshot-migrations-'));
  await mkdir(path.join(dir, '20250101000000_init'));
  await writeFile(
    path.join(dir, '20250101000000_init', 'migration.sql'),
    'CREATE TABLE "item" ("id" SERIAL PRIMARY KEY, "name" TEXT NOT NULL); CREATE TABLE "tag" ("name" TEXT); ' +
      'CREATE TABLE "note" ("item_id" INTEGER NOT NULL REFERENCES "item" ("id"), "text" TEXT);',
  );
  database = await createTestDatabase({ schema: 'snap', migrationsDir: dir });
});
afterAll(async () => {
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('snapshot', () => {
  it('stays equal while nothing is written, and changes with any insert, update or delete', async () => {
    const empty = await database.snapshot();
    expect(Object.keys(empty)).toEqual(['item', 'note', 'tag']);
    expect(await database.snapshot()).toEqual(empty);
    await database.query(`INSERT INTO snap.item (name) VALUES ('a')`);
    const one = await database.snapshot();
    expect(one.item).not.toBe(empty.item);
    expect(one.tag).toBe(empty.tag);
    await database.query(`UPDATE snap.item SET name = 'b'`);
    const updated = await database.snapshot();
    expect(updated.item).not.toBe(one.item);
    await database.query('DELETE FROM snap.item');
    expect((await database.snapshot()).item).toMatch(/^0 rows/);
  });
});

describe('truncate', () => {
  it('empties every table but those kept, a kept table that references an emptied one too, and restarts their sequences', async () => {
    await database.query(`INSERT INTO snap.item (name) VALUES ('a'), ('b')`);
    await database.query(`INSERT INTO snap.note (item_id, text) VALUES (2, 'on b')`);
    await database.query(`INSERT INTO snap.tag (name) VALUES ('kept')`);

    await database.truncate(['tag', 'note']);

    expect(await database.query('SELECT name FROM snap.tag')).toEqual([{ name: 'kept' }]);
    expect(await database.query('SELECT * FROM snap.note')).toEqual([]);
    expect(await database.query('SELECT * FROM snap.item')).toEqual([]);
    const [again] = await database.query(`INSERT INTO snap.item (name) VALUES ('c') RETURNING id`);
    expect(again).toEqual({ id: 1 });
    await database.truncate();
    expect(await database.query('SELECT * FROM snap.tag')).toEqual([]);
  });
});
