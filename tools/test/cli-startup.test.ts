import { utimesSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { ROOT, runNode } from './support/repo';

const { buildApps, staleApps } = require('../services.cjs') as {
  buildApps: (names: string[]) => void;
  staleApps: (names: string[]) => string[];
};

describe('the CLI launcher builds only what changed', () => {
  it('finds a built app current, and stale once its bundle is older than one of its sources', () => {
    buildApps(['calendar-api']);
    expect(staleApps(['calendar-api'])).toEqual([]);
    // As if the sources had changed after the build: the bundle dates from before any source was
    // written (an hour ago is not enough in a checkout whose sources are older than that).
    const longAgo = new Date('2000-01-01T00:00:00Z');
    utimesSync(path.join(ROOT, 'apps/calendar-api/dist/cli.js'), longAgo, longAgo);
    expect(staleApps(['calendar-api'])).toEqual(['calendar-api']);
    buildApps(['calendar-api']);
    expect(staleApps(['calendar-api'])).toEqual([]);
  }, 240_000);
});

describe('a read-only CLI command loads what it uses, not the whole service', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({
      schema: 'workspace',
      migrationsDir: path.join(ROOT, 'prisma/workspace-api/migrations'),
    });
  });
  afterAll(() => database.drop());

  it.each([
    ['api-key', 'list'],
    ['settings', 'export'],
  ])(
    '%s %s loads neither Fastify, the Docker client nor Redis',
    async (...command) => {
      buildApps(['workspace-api']);
      const result = await runNode(
        [
          '-r',
          './tools/test/support/loaded-packages.cjs',
          'apps/workspace-api/dist/cli.js',
          ...command,
        ],
        { DATABASE_URL: database.url },
      );
      expect(result.code).toBe(0);
      const loaded = /loaded: (.*)/.exec(result.stderr)?.[1].split(' ') ?? [];
      expect(loaded).toContain('pg');
      expect(
        loaded.filter((p) => /^(fastify|@fastify\/swagger|dockerode|ioredis)$/.test(p)),
      ).toEqual([]);
    },
    240_000,
  );
});
