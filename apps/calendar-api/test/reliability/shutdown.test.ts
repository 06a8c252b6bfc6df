import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { buildService, runShutdownUnderLoad } from '@platform/testing';
import { MIGRATIONS_DIR } from '../../src/migrations';

const IN_FLIGHT = 30;

let database: TestDatabase;
beforeAll(async () => {
  buildService('calendar-api');
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
}, 60_000);
afterAll(() => database.drop());

describe('SIGTERM under load (the built server)', () => {
  it('finishes every request in flight, refuses new connections, and exits 0', async () => {
    const report = await runShutdownUnderLoad({
      service: 'calendar-api',
      env: {
        DATABASE_URL: database.url,
        CALENDAR_AUTH: 'off',
        NOTIFY_DISPATCH: 'off',
        SLACK_INBOX_WORKER: 'off',
        DATABASE_POOL_MAX: '2',
      },
      databaseUrl: database.url,
      table: 'calendar.calendar_event',
      write: (title) => ({ path: '/api/calendar/add_event', body: { date: '2025-03-03', title } }),
      countStoredSql: "SELECT count(*) FROM calendar.calendar_event WHERE title LIKE 'in flight %'",
      inFlight: IN_FLIGHT,
    });
    expect(report.statuses).toEqual(Array(IN_FLIGHT).fill(201));
    expect(report.late).toBe('ECONNREFUSED');
    expect(report.exit).toEqual({ code: 0, signal: null });
    // Soon after the last request, not at listen()'s 25 s deadline, however busy the machine.
    expect(report.exitMs).toBeLessThan(20_000);
    expect(report.stored).toBe(IN_FLIGHT);
  }, 60_000);
});
