import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { toProblem } from '@platform/errors';
import { startControlledPostgres, type ControlledPostgres } from './controlled-postgres';
import { expectOutageSurvived, formatOutage, OUTAGE_PLAN, runOutage } from './outage';

const TIMEOUT_MS = 1000;

/** The database settings a service under an outage runs with: short timeouts, a small pool. */
export const OUTAGE_DATABASE_ENV = {
  DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
  DATABASE_POOL_MAX: '4',
};

export interface OutageScenario {
  /** Names the report line. */
  service: string;
  /** Migrates the fresh database at `url` and builds the app on it, with OUTAGE_DATABASE_ENV. */
  start: (url: string) => Promise<FastifyInstance>;
  /** The write each client repeats: a POST of `body(key)` whose key the database keeps. */
  write: { path: string; headers?: () => Record<string, string>; body: (key: string) => unknown };
  /** The status of an acknowledged write. */
  success: string;
  /** SQL selecting every stored key as `key`, for the ledger check. */
  storedKeys: string;
}

/**
 * The outage test of a service: PostgreSQL stops under load and comes back while the app runs
 * on a real port; the contract is the one expectOutageSurvived states, with no unhandled rejection.
 */
export function describeDatabaseOutage(scenario: OutageScenario): void {
  let pg: ControlledPostgres;
  let app: FastifyInstance;
  let baseUrl: string;
  const unhandled: unknown[] = [];
  const unexpected: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    pg = await startControlledPostgres();
    app = await scenario.start(await pg.createDatabase('outage'));
    // An answer other than success or 503 fails the test: keep what caused each, to say why.
    app.addHook('onError', async (_request, _reply, error) => {
      if (toProblem(error).status !== 503) unexpected.push(error);
    });
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await app?.close();
    await pg?.close();
  });

  const write = async (sequence: number) => {
    const key = `ledger ${sequence}`;
    const res = await fetch(`${baseUrl}${scenario.write.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...scenario.write.headers?.() },
      body: JSON.stringify(scenario.write.body(key)),
    });
    if (res.status >= 400) {
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    await res.arrayBuffer();
    return { status: res.status, key };
  };

  describe('PostgreSQL stopping under load and coming back', () => {
    it('fails fast with 503, reports not ready, recovers by itself and keeps every acknowledged write', async () => {
      const report = await runOutage({ pg, baseUrl, concurrency: 8, ...OUTAGE_PLAN, write });
      process.stdout.write(
        `${scenario.service} ${formatOutage(report, OUTAGE_PLAN.phaseMs.outage)}\n`,
      );

      for (const error of unexpected)
        process.stdout.write(
          `${scenario.service} error: ${String(error)} ${JSON.stringify(error)}\n`,
        );
      expect(unhandled).toEqual([]);
      const client = new Client({ connectionString: pg.databaseUrl('outage') });
      await client.connect();
      const { rows } = await client.query<{ key: string }>(scenario.storedKeys);
      await client.end();
      expectOutageSurvived(report, {
        success: scenario.success,
        outages: OUTAGE_PLAN.outages,
        timeoutMs: TIMEOUT_MS,
        stored: new Set(rows.map((r) => r.key)),
      });
    }, 120_000);
  });
}
