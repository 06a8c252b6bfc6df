import http from 'node:http';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { buildService, startBuiltServer, waitFor, type BuiltServer } from '@platform/testing';
import { MIGRATIONS_DIR } from '../../src/migrations';

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
beforeAll(async () => {
  buildService('calendar-api');
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
}, 60_000);
afterAll(async () => {
  server?.child.kill('SIGKILL');
  await database.drop();
});

describe('SIGTERM under load (the built server)', () => {
  it('finishes every request in flight, refuses new connections, and exits 0', async () => {
    server = await startBuiltServer('calendar-api', {
      DATABASE_URL: database.url,
      CALENDAR_AUTH: 'off',
      NOTIFY_DISPATCH: 'off',
      SLACK_INBOX_WORKER: 'off',
      DATABASE_POOL_MAX: '2',
    });
    const { url } = server;
    // Holding the table keeps every insert waiting inside the server until we let go.
    const lock = new Client({ connectionString: database.url });
    await lock.connect();
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE calendar.calendar_event IN EXCLUSIVE MODE');

    const before = server.output().split('incoming request').length;
    // Clients that keep their connection alive must not hold the shutdown open either.
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) =>
      post(
        `${url}/api/calendar/add_event`,
        { date: '2025-03-03', title: `in flight ${i}` },
        i % 2 ? keepAlive : false,
      ),
    );
    await waitFor(async () => {
      expect(server?.output().split('incoming request').length).toBe(before + IN_FLIGHT);
    }, 10_000);

    server.child.kill('SIGTERM');
    await waitFor(async () => expect(server?.output()).toContain('shutting down'), 5000);
    const late = await post(`${url}/api/calendar/add_event`, {
      date: '2025-03-03',
      title: 'too late',
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
      `calendar-api SIGTERM: ${IN_FLIGHT} requests in flight answered ${[...new Set(statuses)].join(', ')}; ` +
        `a new request got ${'error' in late ? late.error : late.status}; exit code ${exit.code} ${exitMs} ms after the last one could finish\n`,
    );
    expect(statuses).toEqual(Array(IN_FLIGHT).fill(201));
    expect(late).toEqual({ error: 'ECONNREFUSED' });
    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitMs).toBeLessThan(5000);
    const [{ count }] = await database.query<{ count: string }>(
      "SELECT count(*) FROM calendar.calendar_event WHERE title LIKE 'in flight %'",
    );
    expect(Number(count)).toBe(IN_FLIGHT);
  }, 60_000);
});
