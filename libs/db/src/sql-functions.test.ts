import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { migrate, MigrationError } from './migrate';

const adminUrl = process.env.TEST_DATABASE_URL as string;
const databaseName = `sql_functions_test_${randomBytes(6).toString('hex')}`;
const url = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
let root: string;
let services = 0;

async function query<T extends object>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

const answerFunction = (answer: number) =>
  `CREATE OR REPLACE FUNCTION "answer"() RETURNS INTEGER LANGUAGE sql AS $$ SELECT ${answer} $$;\n`;

/** A service folder as prisma/<service>/ has it: migrations/ (one) and functions/ beside it. */
async function service(functions: Record<string, string>) {
  const dir = path.join(root, `service_${++services}`);
  await mkdir(path.join(dir, 'migrations', '20250101000000_init'), { recursive: true });
  await writeFile(
    path.join(dir, 'migrations', '20250101000000_init', 'migration.sql'),
    'CREATE TABLE "item" ("id" SERIAL PRIMARY KEY);\n' + answerFunction(1),
  );
  await mkdir(path.join(dir, 'functions'));
  const write = (files: Record<string, string>) =>
    Promise.all(
      Object.entries(files).map(([name, sql]) => writeFile(path.join(dir, 'functions', name), sql)),
    );
  await write(functions);
  const schema = `svc_${services}`;
  return {
    schema,
    write,
    run: () =>
      migrate({ connectionString: url, schema, migrationsDir: path.join(dir, 'migrations') }),
    answer: async () => (await query<{ a: number }>(`SELECT "${schema}"."answer"() AS a`))[0]?.a,
    records: () =>
      query<{ name: string; checksum: string; applied_at: Date }>(
        `SELECT * FROM "${schema}"."_sql_functions" ORDER BY name`,
      ),
  };
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sql-functions-'));
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${databaseName}"`);
  await admin.end();
});

afterAll(async () => {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await admin.end();
  await rm(root, { recursive: true, force: true });
});

describe('the functions folder beside the migrations', () => {
  it('is applied after the migrations, so its text replaces what a migration created', async () => {
    const svc = await service({ 'answer.sql': answerFunction(42) });
    expect(await svc.run()).toEqual({
      applied: ['20250101000000_init'],
      alreadyApplied: 0,
      functions: ['answer.sql'],
    });
    expect(await svc.answer()).toBe(42);
    expect((await svc.records()).map((r) => r.name)).toEqual(['answer.sql']);
  });

  it('is applied to a database migrated before it existed, without touching the migrations', async () => {
    const svc = await service({});
    await svc.run();
    expect(await svc.answer()).toBe(1);
    await svc.write({ 'answer.sql': answerFunction(7) });
    expect(await svc.run()).toEqual({ applied: [], alreadyApplied: 1, functions: ['answer.sql'] });
    expect(await svc.answer()).toBe(7);
  });

  it('applies a file again only when its text changed', async () => {
    const svc = await service({ 'answer.sql': answerFunction(2) });
    await svc.run();
    const [first] = await svc.records();
    expect(await svc.run()).toEqual({ applied: [], alreadyApplied: 1, functions: [] });
    expect(await svc.records()).toEqual([first]);

    await svc.write({ 'answer.sql': answerFunction(3) });
    expect((await svc.run()).functions).toEqual(['answer.sql']);
    expect(await svc.answer()).toBe(3);
    const [second] = await svc.records();
    expect(second?.checksum).not.toBe(first?.checksum);
  });

  it('rolls a failing file back and records nothing for it, naming the file', async () => {
    const svc = await service({ 'answer.sql': answerFunction(5), 'broken.sql': 'SELECT nope;' });
    const error = await svc.run().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(MigrationError);
    expect(error?.message).toMatch(/^SQL functions file broken\.sql failed: /);
    expect((await svc.records()).map((r) => r.name)).toEqual(['answer.sql']);
  });
});
