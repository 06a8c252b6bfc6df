import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { buildApp, type AppOverrides } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openDatabase } from '../src/db';
import type { PrismaClient } from '../src/generated/prisma/client';
import { MIGRATIONS_DIR } from '../src/migrations';
import { createTokensService, type TokensService } from '../src/tokens';

export interface Call {
  method: InjectOptions['method'];
  /** Relative to /api/calendar unless it starts with a slash. */
  url: string;
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
  /** Defaults to the harness token; null sends no Authorization header. */
  token?: string | null;
}

export const API = '/api/calendar';
/** 2025-03-05T15:00Z: Wednesday in UTC and in Los Angeles, already Thursday in Tokyo. */
export const DEFAULT_NOW = new Date('2025-03-05T15:00:00Z');

export interface Harness {
  app: FastifyInstance;
  config: Config;
  database: TestDatabase;
  /** A second client on the same database, for arranging and asserting rows directly. */
  db: PrismaClient;
  tokens: TokensService;
  /** A valid token, kept across resets. */
  token: string;
  /** Moves the app's clock; `reset` puts it back to DEFAULT_NOW. */
  setNow: (now: Date) => void;
  request: (call: Call) => Promise<LightMyRequestResponse>;
  get: (path: string) => Promise<LightMyRequestResponse>;
  post: (path: string, payload: object) => Promise<LightMyRequestResponse>;
  /**
   * Another app on the same database (another replica, or the process after a restart), with
   * more settings; `close` closes it too (closing it earlier is fine).
   */
  otherApp: (env?: Record<string, string>) => Promise<FastifyInstance>;
  reset: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Background workers stay off unless a test turns them on; it can also run them by hand. The
 * webhook servers of the tests listen on 127.0.0.1, which outbound requests may reach only
 * when allowed.
 */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    // The service's own log lines, for a run that asks (TEST_LOG_LEVEL=warn npx jest …).
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    NOTIFY_DISPATCH: 'off',
    SLACK_INBOX_WORKER: 'off',
    SCHEDULER_WORKER: 'off',
    OUTBOUND_ALLOWLIST: '127.0.0.1',
    ...env,
  });
}

/** A migrated database of its own and an app on it; call in beforeAll, `close` in afterAll. */
export async function createHarness(
  env: Record<string, string> = {},
  overrides: AppOverrides = {},
): Promise<Harness> {
  const database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
  const config = testConfig(database.url, env);
  let now = DEFAULT_NOW;
  const app = await buildApp(config, { now: () => now, ...overrides });
  const second = openDatabase(config);
  const db = second.prisma;
  const tokens = createTokensService({ db: second });
  const { token } = await tokens.create('test');
  const others: FastifyInstance[] = [];

  const request: Harness['request'] = ({ token: given = token, url, headers, ...rest }) =>
    app.inject({
      ...rest,
      url: url.startsWith('/') ? url : `${API}/${url}`,
      headers: { ...(given === null ? {} : { authorization: `Bearer ${given}` }), ...headers },
    });

  return {
    app,
    config,
    database,
    db,
    tokens,
    token,
    setNow: (date) => {
      now = date;
    },
    request,
    get: (path) => request({ method: 'GET', url: path }),
    post: (path, payload) => request({ method: 'POST', url: path, payload }),
    otherApp: async (more = {}) => {
      const other = await buildApp(testConfig(database.url, { ...env, ...more }), {
        now: () => now,
        ...overrides,
      });
      others.push(other);
      return other;
    },
    reset: async () => {
      now = DEFAULT_NOW;
      await database.truncate(['api_token']);
    },
    close: async () => {
      await Promise.all(others.map((other) => other.close()));
      await app.close();
      await second.close();
      await database.drop();
    },
  };
}
