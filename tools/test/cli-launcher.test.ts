import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { ROOT, runNode } from './support/repo';

// `npm run workspace -- …` and `npm run calendar -- …` are `node tools/cli.cjs <service> …`.
const CASES = [
  {
    service: 'workspace-api',
    schema: 'workspace',
    portVar: 'WORKSPACE_API_PORT',
    port: '4566',
    args: ['api-key', 'create', '--name', 'try', '--permission', 'users.view'],
    example: 'curl -s -X POST http://localhost:4566/api/public/get_users',
  },
  {
    service: 'calendar-api',
    schema: 'calendar',
    portVar: 'CALENDAR_API_PORT',
    port: '4567',
    args: ['token', 'create', '--name', 'try'],
    example: 'curl -s -X POST http://localhost:4567/api/calendar/add_event',
  },
];

describe.each(CASES)('npm run <service> -- … for $service', (c) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({
      schema: c.schema,
      migrationsDir: path.join(ROOT, 'prisma', c.service, 'migrations'),
    });
  });
  afterAll(() => database.drop());

  it(`prints its "try it" example on the port in ${c.portVar}`, async () => {
    const result = await runNode(['tools/cli.cjs', c.service, ...c.args], {
      DATABASE_URL: database.url,
      [c.portVar]: c.port,
      PORT: undefined,
      PUBLIC_URL: undefined,
    });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(c.example);
  }, 240_000);
});
