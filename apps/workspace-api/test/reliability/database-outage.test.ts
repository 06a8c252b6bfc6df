import type { FastifyInstance } from 'fastify';
import { Client } from 'pg';
import { migrate } from '@platform/db';
import {
  expectOutageSurvived,
  formatOutage,
  OUTAGE_PLAN,
  runOutage,
  startControlledPostgres,
  type ControlledPostgres,
} from '@platform/testing';
import { buildApp } from '../../src/app';
import { createApiKeysRepository } from '../../src/api-keys/api-keys.repository';
import { createApiKeysService } from '../../src/api-keys/api-keys.service';
import { openDatabase } from '../../src/db';
import { MIGRATIONS_DIR } from '../../src/migrations';
import { testConfig } from '../harness';

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
  const url = await pg.createDatabase('outage');
  await migrate({ connectionString: url, schema: 'workspace', migrationsDir: MIGRATIONS_DIR });
  const config = testConfig(url, {
    DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
    DATABASE_POOL_MAX: '4',
  });
  const database = openDatabase(config);
  const { apiKey, secret } = await createApiKeysService({
    keys: createApiKeysRepository(database),
  }).issue({
    name: 'outage',
    permissions: ['global_admin'],
  });
  await database.close();
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
      ...OUTAGE_PLAN,
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
    process.stdout.write(`workspace-api ${formatOutage(report, OUTAGE_PLAN.phaseMs.outage)}\n`);

    expect(unhandled).toEqual([]);
    const client = new Client({ connectionString: pg.databaseUrl('outage') });
    await client.connect();
    const { rows } = await client.query<{ key: string }>(
      'SELECT name AS key FROM workspace."group"',
    );
    await client.end();
    expectOutageSurvived(report, {
      success: '200',
      outages: OUTAGE_PLAN.outages,
      timeoutMs: TIMEOUT_MS,
      stored: new Set(rows.map((r) => r.key)),
    });
  }, 120_000);
});
