import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { buildService, runShutdownUnderLoad } from '@platform/testing';
import { createApiKeysRepository, createApiKeysService } from '../../src/api-keys';
import { openDatabase } from '../../src/db';
import { MIGRATIONS_DIR } from '../../src/migrations';
import { testConfig } from '../harness';

const IN_FLIGHT = 30;

let database: TestDatabase;
let credentials: { api_key: string; api_key_secret: string };
beforeAll(async () => {
  buildService('workspace-api');
  database = await createTestDatabase({ schema: 'workspace', migrationsDir: MIGRATIONS_DIR });
  const data = openDatabase(testConfig(database.url));
  const { apiKey, secret } = await createApiKeysService({
    keys: createApiKeysRepository(data),
  }).issue({
    name: 'shutdown',
    permissions: ['global_admin'],
  });
  credentials = { api_key: apiKey.key, api_key_secret: secret };
  await data.close();
}, 60_000);
afterAll(() => database.drop());

describe('SIGTERM under load (the built server)', () => {
  it('finishes every request in flight, refuses new connections, and exits 0', async () => {
    const report = await runShutdownUnderLoad({
      service: 'workspace-api',
      env: { DATABASE_URL: database.url, DATABASE_POOL_MAX: '2' },
      databaseUrl: database.url,
      table: 'workspace."group"',
      write: (name) => ({
        path: '/api/public/create_group',
        body: { ...credentials, target_group: { name } },
      }),
      countStoredSql: `SELECT count(*) FROM workspace."group" WHERE name LIKE 'in flight %'`,
      inFlight: IN_FLIGHT,
    });
    expect(report.statuses).toEqual(Array(IN_FLIGHT).fill(200));
    expect(report.late).toBe('ECONNREFUSED');
    expect(report.exit).toEqual({ code: 0, signal: null });
    // Well under the 25 s deadline that forces an exit: the server ended by itself.
    expect(report.exitMs).toBeLessThan(20_000);
    expect(report.stored).toBe(IN_FLIGHT);
  }, 60_000);
});
