import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { migrate } from '@platform/db';
import {
  formatOutage,
  runOutage,
  startControlledPostgres,
  type ControlledPostgres,
} from '@platform/testing';
import { buildApp } from '../../src/app';
import { createApiKeysService } from '../../src/api-keys/api-keys.service';
import { createDb } from '../../src/db';
import { MIGRATIONS_DIR } from '../../src/migrations';
import { testConfig } from '../harness';

// LONG_TESTS=1: three outages of 5 s in 40 s of load; otherwise one of 1.5 s in a few seconds.
const LONG = process.env.LONG_TESTS === '1';
const PHASES = LONG
  ? { before: 5000, outage: 5000, after: 5000 }
  : { before: 800, outage: 1500, after: 800 };
const OUTAGES = LONG ? 3 : 1;
const TIMEOUT_MS = 1000;

let pg: ControlledPostgres;
let app: FastifyInstance;
let baseUrl: string;
let credentials: { 'api-key': string; 'api-key-secret': string };
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  pg = await startControlledPostgres();
  const admin = new Client({ connectionString: pg.url });
  await admin.connect();
  await admin.query('CREATE DATABASE outage');
  await admin.end();
  const url = pg.databaseUrl('outage');
  await migrate({ connectionString: url, schema: 'workspace', migrationsDir: MIGRATIONS_DIR });
  const config = testConfig(url, {
    DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
    DATABASE_POOL_MAX: '4',
  });
  const db = createDb(config);
  const { apiKey, secret } = await createApiKeysService({ db }).issue({
    name: 'outage',
    permissions: ['global_admin'],
  });
  await db.$disconnect();
  credentials = { 'api-key': apiKey.key, 'api-key-secret': secret };
  app = await buildApp(config);
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await app?.close();
  await pg?.close();
});

describe('PostgreSQL stopping under load and coming back', () => {
  it('fails fast with 503, reports not ready, recovers by itself and keeps every acknowledged write', async () => {
    const report = await runOutage({
      pg,
      baseUrl,
      concurrency: 8,
      phaseMs: PHASES,
      outages: OUTAGES,
      write: async (sequence) => {
        const key = `ledger ${sequence}`;
        const res = await fetch(`${baseUrl}/api/public/create_group`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...credentials },
          body: JSON.stringify({ target_group: { name: key } }),
        });
        if (res.status >= 400) {
          expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        }
        await res.arrayBuffer();
        return { status: res.status, key };
      },
    });
    process.stdout.write(`workspace-api ${formatOutage(report, PHASES.outage)}\n`);

    expect(report.errors).toEqual({});
    for (const phase of Object.values(report.byPhase)) {
      expect(Object.keys(phase).filter((s) => s !== '200' && s !== '503')).toEqual([]);
    }
    expect(report.byPhase.outage['503']).toBeGreaterThan(0);
    expect(report.maxOutageLatencyMs).toBeLessThan(TIMEOUT_MS + 1500);
    expect(Object.keys(report.readyDuringOutage)).toEqual(['503']);
    expect(report.readyAfter).toEqual({ 200: OUTAGES });
    for (const ms of report.recoveryMs) expect(ms).toBeLessThan(5000);
    expect(report.byPhase.after['200']).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);

    const client = new Client({ connectionString: pg.databaseUrl('outage') });
    await client.connect();
    const { rows } = await client.query<{ name: string }>('SELECT name FROM workspace."group"');
    await client.end();
    const stored = new Set(rows.map((r) => r.name));
    expect(report.acknowledged.filter((key) => !stored.has(key))).toEqual([]);
    expect(report.acknowledged.length).toBeGreaterThan(10);
  }, 120_000);
});
