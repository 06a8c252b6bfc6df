import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { migrate, MigrationError } from './migrate';

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  applied_steps_count: number;
}

const INIT = '20250101000000_init';
const ADD_GROUP = '20250102000000_add_group';
const ADD_INDEX = '20250103000000_add_index';

const SQL = {
  [INIT]: `CREATE TABLE "log" ("n" SERIAL PRIMARY KEY, "name" TEXT NOT NULL);
CREATE TABLE "user" ("id" UUID PRIMARY KEY, "name" TEXT NOT NULL);
INSERT INTO "log" ("name") VALUES ('${INIT}');`,
  [ADD_GROUP]: `CREATE TABLE "group" ("id" UUID PRIMARY KEY, "owner_id" UUID NOT NULL REFERENCES "user"("id"));
INSERT INTO "log" ("name") VALUES ('${ADD_GROUP}');`,
  [ADD_INDEX]: `CREATE INDEX "group_owner_id_idx" ON "group"("owner_id");
INSERT INTO "log" ("name") VALUES ('${ADD_INDEX}');`,
};

const adminUrl = process.env.TEST_DATABASE_URL as string;
const databaseName = `migrate_test_${randomBytes(6).toString('hex')}`;
const url = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
const tempDirs: string[] = [];
let schemaCount = 0;

async function withClient<T>(
  connectionString: string,
  fn: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const query = <T extends object>(sql: string, params: unknown[] = []) =>
  withClient(url, async (c) => (await c.query<T>(sql, params)).rows);

/** The error a run rejected with, which must be a MigrationError. */
async function migrationError(run: Promise<unknown>): Promise<Error> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MigrationError);
  return error as Error;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function writeMigration(dir: string, name: string, sql: string): Promise<void> {
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, 'migration.sql'), sql);
}

/** A migrations folder in Prisma's layout, and a schema name no other test uses. */
async function setup(names: (keyof typeof SQL)[]) {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  tempDirs.push(dir);
  await writeFile(path.join(dir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  // Written newest first, so the order cannot come from the order of creation.
  for (const name of [...names].reverse()) await writeMigration(dir, name, SQL[name]);
  const schema = `svc_${++schemaCount}`;
  return { dir, schema, run: () => migrate({ connectionString: url, schema, migrationsDir: dir }) };
}

const history = (schema: string) =>
  query<HistoryRow>(`SELECT * FROM "${schema}"."_prisma_migrations" ORDER BY migration_name`);

const tables = async (schema: string) =>
  (
    await query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
      [schema],
    )
  ).map((r) => r.table_name);

beforeAll(async () => {
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${databaseName}"`));
});

afterAll(async () => {
  await withClient(adminUrl, (c) =>
    c.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`),
  );
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('migrate', () => {
  it('applies pending migrations in name order into the named schema', async () => {
    const { schema, run } = await setup([INIT, ADD_GROUP, ADD_INDEX]);
    const result = await run();

    expect(result).toEqual({
      applied: [INIT, ADD_GROUP, ADD_INDEX],
      alreadyApplied: 0,
      functions: [],
    });
    const log = await query<{ name: string }>(`SELECT name FROM "${schema}"."log" ORDER BY n`);
    expect(log.map((r) => r.name)).toEqual([INIT, ADD_GROUP, ADD_INDEX]);
    expect(await tables(schema)).toEqual(['_prisma_migrations', 'group', 'log', 'user']);
    expect(await tables('public')).toEqual([]);
  });

  it('records each applied migration in _prisma_migrations as Prisma does', async () => {
    const { schema, run } = await setup([INIT, ADD_GROUP]);
    await run();

    const rows = await history(schema);
    expect(rows).toEqual([
      expect.objectContaining({
        migration_name: INIT,
        checksum: sha256(SQL[INIT]),
        applied_steps_count: 1,
      }),
      expect.objectContaining({
        migration_name: ADD_GROUP,
        checksum: sha256(SQL[ADD_GROUP]),
        applied_steps_count: 1,
      }),
    ]);
    for (const row of rows) {
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
    }
  });

  it('applies nothing on a second run', async () => {
    const { schema, run } = await setup([INIT, ADD_GROUP]);
    await run();
    const before = await history(schema);

    expect(await run()).toEqual({ applied: [], alreadyApplied: 2, functions: [] });
    expect(await history(schema)).toEqual(before);
  });

  it('rolls back a failing migration entirely and names it in the error', async () => {
    const { dir, schema, run } = await setup([INIT]);
    const broken = '20250102000000_broken';
    await writeMigration(
      dir,
      broken,
      'CREATE TABLE "partial" ("id" INT);\nCREATE TABLE "bad" ("id" INT REFERENCES "nowhere"("id"));',
    );

    const error = await migrationError(run());
    expect(error.message).toContain(broken);
    expect(await tables(schema)).toEqual(['_prisma_migrations', 'log', 'user']);
    expect((await history(schema)).map((r) => r.migration_name)).toEqual([INIT]);

    await writeMigration(dir, broken, 'CREATE TABLE "fixed" ("id" INT);');
    expect(await run()).toEqual({ applied: [broken], alreadyApplied: 1, functions: [] });
  });

  it('refuses to run when an applied migration file changed, and changes nothing', async () => {
    const { dir, schema, run } = await setup([INIT]);
    await run();
    await writeMigration(dir, INIT, `${SQL[INIT]}\nCREATE TABLE "sneaky" ("id" INT);`);
    await writeMigration(dir, ADD_GROUP, SQL[ADD_GROUP]);

    const error = await migrationError(run());
    expect(error.message).toMatch(/checksum/);
    expect(error.message).toContain(INIT);
    expect(await tables(schema)).toEqual(['_prisma_migrations', 'log', 'user']);
    expect(await history(schema)).toEqual([
      expect.objectContaining({ migration_name: INIT, checksum: sha256(SQL[INIT]) }),
    ]);
  });

  it('applies a migration added after the last run', async () => {
    const { dir, schema, run } = await setup([INIT]);
    await run();
    await writeMigration(dir, ADD_GROUP, SQL[ADD_GROUP]);

    expect(await run()).toEqual({ applied: [ADD_GROUP], alreadyApplied: 1, functions: [] });
    expect((await history(schema)).map((r) => r.migration_name)).toEqual([INIT, ADD_GROUP]);
    expect(await tables(schema)).toContain('group');
  });

  it('refuses to run while a migration that failed earlier is unresolved', async () => {
    const { dir, schema, run } = await setup([INIT]);
    await run();
    await query(
      `INSERT INTO "${schema}"."_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)`,
      ['00000000-0000-0000-0000-000000000001', sha256(SQL[ADD_GROUP]), ADD_GROUP],
    );
    await writeMigration(dir, ADD_GROUP, SQL[ADD_GROUP]);

    expect((await migrationError(run())).message).toBe(
      `Migration ${ADD_GROUP} failed earlier and was never resolved`,
    );
    expect(await tables(schema)).not.toContain('group');
  });

  it('applies each migration exactly once when replicas start at the same time', async () => {
    const { dir, schema } = await setup([INIT, ADD_GROUP]);
    // A slow migration widens the window in which an unlocked second runner would also apply it.
    await writeMigration(dir, ADD_INDEX, `SELECT pg_sleep(0.3);\n${SQL[ADD_INDEX]}`);
    const runs = Array.from({ length: 3 }, () =>
      migrate({ connectionString: url, schema, migrationsDir: dir }),
    );

    const results = await Promise.all(runs);
    const applied = results.flatMap((r) => r.applied);
    expect(applied.sort()).toEqual([INIT, ADD_GROUP, ADD_INDEX]);
    expect(results.filter((r) => r.applied.length === 0)).toHaveLength(2);
    const counts = await query<{ migration_name: string; count: string }>(
      `SELECT migration_name, count(*) FROM "${schema}"."_prisma_migrations" GROUP BY migration_name ORDER BY 1`,
    );
    expect(counts).toEqual(
      [INIT, ADD_GROUP, ADD_INDEX].map((name) => ({ migration_name: name, count: '1' })),
    );
  });

  it('migrates as a role that owns the schema but may not create schemas', async () => {
    const { dir, schema } = await setup([INIT, ADD_GROUP]);
    const role = `${databaseName}_owner`;
    await query(`CREATE ROLE "${role}" LOGIN PASSWORD 'owner'`);
    try {
      await query(`CREATE SCHEMA "${schema}" AUTHORIZATION "${role}"`);
      const asOwner = Object.assign(new URL(url), { username: role, password: 'owner' }).toString();

      const result = await migrate({ connectionString: asOwner, schema, migrationsDir: dir });

      expect(result).toEqual({ applied: [INIT, ADD_GROUP], alreadyApplied: 0, functions: [] });
      expect(await tables(schema)).toEqual(['_prisma_migrations', 'group', 'log', 'user']);
    } finally {
      await query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await query(`DROP ROLE "${role}"`);
    }
  });

  it.each(['Public', 'svc-api', '1svc', '', 'svc"; DROP SCHEMA public CASCADE; --'])(
    'refuses the invalid schema name %p before connecting',
    async (schema) => {
      const { dir } = await setup([INIT]);
      const unreachable = 'postgres://nobody:nothing@127.0.0.1:1/none';
      const run = migrate({ connectionString: unreachable, schema, migrationsDir: dir });
      expect((await migrationError(run)).message).toBe(`Invalid schema name "${schema}"`);
    },
  );
});
