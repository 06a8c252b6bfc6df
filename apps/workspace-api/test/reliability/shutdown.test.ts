import http from 'node:http';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { buildService, startBuiltServer, waitFor, type BuiltServer } from '@platform/testing';
import { createApiKeysService } from '../../src/api-keys/api-keys.service';
import { createDb } from '../../src/db';
import { MIGRATIONS_DIR } from '../../src/migrations';
import { testConfig } from '../harness';

const IN_FLIGHT = 30;

/** One request on a connection of its own (kept alive with `agent`), so that none waits behind another. */
function post(
  url: string,
  body: object,
  agent: http.Agent | false = false,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
    req.end(JSON.stringify(body));
  });
}

let database: TestDatabase;
let server: BuiltServer | undefined;
let credentials: { api_key: string; api_key_secret: string };
beforeAll(async () => {
  buildService('workspace-api');
  database = await createTestDatabase({ schema: 'workspace', migrationsDir: MIGRATIONS_DIR });
  const db = createDb(testConfig(database.url));
  const { apiKey, secret } = await createApiKeysService({ db }).issue({
    name: 'shutdown',
    permissions: ['global_admin'],
  });
  credentials = { api_key: apiKey.key, api_key_secret: secret };
  await db.$disconnect();
}, 60_000);
afterAll(async () => {
  server?.child.kill('SIGKILL');
  await database.drop();
});

describe('SIGTERM under load (the built server)', () => {
  it('finishes every request in flight, refuses new connections, and exits 0', async () => {
    server = await startBuiltServer('workspace-api', {
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: '2',
    });
    const { url } = server;
    // Holding the table keeps every create_group waiting inside the server until we let go.
    const lock = new Client({ connectionString: database.url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE workspace."group" IN EXCLUSIVE MODE');

    const before = server.output().split('incoming request').length;
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) =>
      post(
        `${url}/api/public/create_group`,
        { ...credentials, target_group: { name: `in flight ${i}` } },
        i % 2 ? keepAlive : false,
      ),
    );
    await waitFor(async () => {
      expect(server?.output().split('incoming request').length).toBe(before + IN_FLIGHT);
    }, 10_000);

    server.child.kill('SIGTERM');
    await waitFor(async () => expect(server?.output()).toContain('shutting down'), 5000);
    const late = await post(`${url}/api/public/create_group`, {
      ...credentials,
      target_group: { name: 'too late' },
    });

    await new Promise((resolve) => setTimeout(resolve, 300));
    await lock.query('COMMIT');
    const released = Date.now();
    await lock.end();

    const results = await Promise.all(inFlight);
    const exit = await server.exited;
    const exitMs = Date.now() - released;
    keepAlive.destroy();
    const statuses = results.map((r) => ('status' in r ? r.status : r.error));
    process.stdout.write(
      `workspace-api SIGTERM: ${IN_FLIGHT} requests in flight answered ${[...new Set(statuses)].join(', ')}; ` +
        `a new request got ${'error' in late ? late.error : late.status}; exit code ${exit.code} ${exitMs} ms after the last one could finish\n`,
    );
    expect(statuses).toEqual(Array(IN_FLIGHT).fill(200));
    expect(late).toEqual({ error: 'ECONNREFUSED' });
    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitMs).toBeLessThan(5000);
    const [{ count }] = await database.query<{ count: string }>(
      `SELECT count(*) FROM workspace."group" WHERE name LIKE 'in flight %'`,
    );
    expect(Number(count)).toBe(IN_FLIGHT);
  }, 60_000);
});
