import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { buildApp, type AppOverrides } from '../src/app';
import { createApiKeysRepository, createApiKeysService, type Permission } from '../src/api-keys';
import { loadConfig, type Config } from '../src/config';
import { openDatabase, type Database, type Db } from '../src/db';
import { MIGRATIONS_DIR } from '../src/migrations';

export interface Credentials {
  api_key: string;
  api_key_secret: string;
}

/** Credentials as the api-key/api-key-secret headers, keeping a request's body its own. */
export const keyHeaders = (credentials: Credentials) => ({
  'api-key': credentials.api_key,
  'api-key-secret': credentials.api_key_secret,
});

/** A 400 whose problem details name exactly `fields`, in any order. */
export function expectFieldErrors(res: LightMyRequestResponse, fields: string[]): void {
  expect(res.statusCode).toBe(400);
  const named = res.json().errors.map((e: { field: string }) => e.field);
  expect(named.sort()).toEqual([...fields].sort());
}

export interface Harness {
  app: FastifyInstance;
  config: Config;
  database: TestDatabase;
  /** A second data layer on the same database, for services built outside the app. */
  data: Database;
  /** Its Prisma client, for arranging and asserting rows directly. */
  db: Db;
  admin: Credentials;
  issueKey: (
    permissions: Permission[],
    options?: { readOnly?: boolean; expiresAt?: Date },
  ) => Promise<Credentials>;
  /** POSTs an operation with the given credentials in the body, as Kasm clients do. */
  call: (
    operation: string,
    body?: object,
    credentials?: Credentials | null,
  ) => Promise<LightMyRequestResponse>;
  inject: (options: InjectOptions) => Promise<LightMyRequestResponse>;
  reset: () => Promise<void>;
  close: () => Promise<void>;
}

/** The registry servers of the tests listen on 127.0.0.1, which outbound requests may reach only when allowed. */
export function testConfig(databaseUrl: string, env: Record<string, string> = {}): Config {
  // The run's private engine (test/engine) is a socket the operator allows, as npm start's DOCKER_HOST is.
  const engine = process.env.TEST_DOCKER_HOST;
  const socket = engine?.startsWith('unix://') ? `,${engine.slice('unix://'.length)}` : '';
  return loadConfig({
    ENGINE_SOCKET_PATHS: `/var/run/docker.sock,/run/docker.sock${socket}`,
    DATABASE_URL: databaseUrl,
    BCRYPT_COST: '4',
    // A wait for a connection or a statement catches a hang, not a slow machine: at the stock
    // 5 s, PostgreSQL on CI's two busy cores has answered 503 now and then.
    DATABASE_TIMEOUT_MS: '60000',
    // The service's own log lines, for a run that asks (TEST_LOG_LEVEL=warn npx jest …).
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    OUTBOUND_ALLOWLIST: '127.0.0.1',
    // The tests' TLS files (test/tls-material.ts) are made in the system's temporary folder.
    ENGINE_TLS_DIR: realpathSync(tmpdir()),
    // Session tests run the lifecycle's rounds themselves (app.sessionWorker) or turn it on.
    SESSION_WORKER: 'off',
    // One listener for the proxy's mechanics; the origin tests set SESSION_PORT and listen on
    // app.sessionsServer.
    SESSION_PORT: '0',
    ...env,
  });
}

/** A migrated database of its own and an app on it; call in beforeAll, `close` in afterAll. */
export async function createHarness(
  env: Record<string, string> = {},
  overrides: AppOverrides = {},
): Promise<Harness> {
  const database = await createTestDatabase({ schema: 'workspace', migrationsDir: MIGRATIONS_DIR });
  // The database is a copy of the run's template, which keeps the installation's identity as a
  // restored backup does; each test file is an installation of its own, whose session worker
  // removes only its own containers from the engine the files share.
  await database.query('UPDATE workspace.installation SET id = gen_random_uuid()');
  const config = testConfig(database.url, env);
  const app = await buildApp(config, overrides);
  const data = openDatabase(config);
  const db = data.prisma;
  const apiKeys = createApiKeysService({ keys: createApiKeysRepository(data) });

  const issueKey: Harness['issueKey'] = async (permissions, options = {}) => {
    const { apiKey, secret } = await apiKeys.issue({ name: 'test', permissions, ...options });
    return { api_key: apiKey.key, api_key_secret: secret };
  };
  const harness: Harness = {
    app,
    config,
    database,
    data,
    db,
    admin: await issueKey(['global_admin']),
    issueKey,
    call: (operation, body = {}, credentials = harness.admin) =>
      app.inject({
        method: 'POST',
        url: `/api/public/${operation}`,
        payload: { ...credentials, ...body },
      }),
    inject: (options) => app.inject(options),
    reset: async () => {
      await database.truncate(['group', 'api_key']);
      await database.query(`DELETE FROM workspace."group" WHERE NOT is_system`);
    },
    close: async () => {
      await app.close();
      await data.close();
      await database.drop();
    },
  };
  return harness;
}

/**
 * A harness for the whole test file: created before the first test (then handed to `use`),
 * reset before each, closed after the last.
 */
export function useHarness(use: (harness: Harness) => void, env: Record<string, string> = {}) {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await createHarness(env);
    use(harness);
  });
  afterAll(() => harness?.close());
  beforeEach(() => harness?.reset());
}

/** A log stream for createHarness's overrides, and the JSON lines written to it so far. */
export function captureLogs() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return {
    stream,
    text: () => text,
    lines: (): Record<string, unknown>[] =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}
