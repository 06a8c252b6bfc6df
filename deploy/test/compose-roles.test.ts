import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { migrate } from '@platform/db';
import { Client } from 'pg';
import { ROOT, SERVICES } from './support/repo';

// The Compose stack's init script, run as the postgres image runs it (psql, POSTGRES_USER,
// POSTGRES_DB) against a fresh database on the test server. Role names are unique per run
// because roles belong to the whole server.
const adminUrl = new URL(process.env.TEST_DATABASE_URL as string);
const suffix = randomBytes(5).toString('hex');
const database = `deploy_roles_${suffix}`;
const roles = Object.fromEntries(
  SERVICES.map((s) => [
    s.schema,
    { name: `${s.schema}_${suffix}`, password: randomBytes(12).toString('hex') },
  ]),
);

const urlAs = (role: { name: string; password: string }) =>
  Object.assign(new URL(adminUrl), {
    username: role.name,
    password: role.password,
    pathname: `/${database}`,
  }).toString();

async function asRole<T>(schema: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: urlAs(roles[schema]) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function asAdmin(sql: string) {
  const client = new Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const failure = (run: Promise<unknown>) =>
  run.then(
    () => 'succeeded',
    (error: Error) => error.message,
  );

beforeAll(async () => {
  await asAdmin(`CREATE DATABASE "${database}"`);
  const result = spawnSync('bash', [path.join(ROOT, 'deploy/compose/init-service-roles.sh')], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      PGHOST: adminUrl.hostname,
      PGPORT: adminUrl.port || '5432',
      PGPASSWORD: decodeURIComponent(adminUrl.password),
      POSTGRES_USER: decodeURIComponent(adminUrl.username),
      POSTGRES_DB: database,
      WORKSPACE_DB_USER: roles.workspace.name,
      WORKSPACE_DB_PASSWORD: roles.workspace.password,
      CALENDAR_DB_USER: roles.calendar.name,
      CALENDAR_DB_PASSWORD: roles.calendar.password,
    },
  });
  if (result.status !== 0) throw new Error(`init script failed: ${result.stderr}`);
});

afterAll(async () => {
  await asAdmin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  for (const role of Object.values(roles)) await asAdmin(`DROP ROLE IF EXISTS "${role.name}"`);
});

describe('deploy/compose/init-service-roles.sh', () => {
  it.each(SERVICES)(
    "lets $name's role apply its migrations to its own schema",
    async ({ name, schema }) => {
      const result = await migrate({
        connectionString: urlAs(roles[schema]),
        schema,
        migrationsDir: path.join(ROOT, `prisma/${name}/migrations`),
      });
      expect(result.applied.length).toBeGreaterThan(0);
    },
  );

  it("keeps each role out of the other service's schema", async () => {
    await migrate({
      connectionString: urlAs(roles.calendar),
      schema: 'calendar',
      migrationsDir: path.join(ROOT, 'prisma/calendar-api/migrations'),
    });
    expect(
      await asRole('workspace', (c) =>
        failure(c.query('SELECT * FROM calendar._prisma_migrations')),
      ),
    ).toBe('permission denied for schema calendar');
    expect(
      await asRole('calendar', (c) => failure(c.query('CREATE TABLE workspace.intruder (id int)'))),
    ).toBe('permission denied for schema workspace');
  });

  it('lets no role create a schema', async () => {
    expect(await asRole('workspace', (c) => failure(c.query('CREATE SCHEMA extra')))).toBe(
      `permission denied for database ${database}`,
    );
  });
});
