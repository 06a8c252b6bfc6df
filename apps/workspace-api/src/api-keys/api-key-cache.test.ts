import type { FastifyInstance } from 'fastify';
import { createHarness, type Credentials, type Harness } from '../../test/harness';
import { buildApp } from '../app';
import { createApiKeyCache, type ApiKeyCache } from './api-key-cache';
import { createApiKeyFence } from './api-key-fence';
import { createApiKeysRepository } from './api-keys.repository';
import { createApiKeysService } from './api-keys.service';

// Two instances of the service on one database, as two replicas: `h.app` (A) and B, started per test.
let h: Harness;
let started: FastifyInstance | undefined;
let bCache: ApiKeyCache | null = null;
let key: Credentials;

const database = () => ({ database: h.data });
const call = (
  app: FastifyInstance,
  operation: string,
  credentials: Credentials,
  body: object = {},
) =>
  app.inject({
    method: 'POST',
    url: `/api/public/${operation}`,
    payload: { ...credentials, ...body },
  });
const status = async (app: FastifyInstance, operation = 'get_users') =>
  (await call(app, operation, key)).statusCode;
const sql = (text: string) => h.database.query(text);
const killListeners = () =>
  sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'api-key-cache:workspace' AND datname = current_database()`);
const withoutTrigger = async (run: () => Promise<unknown>) => {
  await sql('ALTER TABLE workspace.api_key DISABLE TRIGGER api_key_changed');
  try {
    await run();
  } finally {
    await sql('ALTER TABLE workspace.api_key ENABLE TRIGGER api_key_changed');
  }
};
const revokeInSql = () =>
  sql(`UPDATE workspace.api_key SET revoked_at = now() WHERE key = '${key.api_key}'`);

async function until(condition: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Starts B with the given cache (or its configured one) and makes both instances remember the key. */
async function startB(cache?: ApiKeyCache): Promise<FastifyInstance> {
  bCache = cache ?? null;
  const app = await buildApp(h.config, cache === undefined ? {} : { apiKeyCache: cache });
  started = app;
  await app.ready();
  if (cache) await until(() => cache.isLive());
  expect(await status(h.app)).toBe(200);
  expect(await status(app)).toBe(200);
  return app;
}

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  key = await h.issueKey(['global_admin']);
});
afterEach(async () => {
  await started?.close();
  await bCache?.close();
  started = undefined;
  bCache = null;
});

describe('API key cache across two instances', () => {
  it('refuses a key revoked through one instance on the very next request to the other', async () => {
    const b = await startB();
    const { id } = await h.db.apiKey.findUniqueOrThrow({ where: { key: key.api_key } });
    const revoked = await call(h.app, 'revoke_api_key', h.admin, { api_key_id: id });
    expect(revoked.statusCode).toBe(200);
    expect(await status(b)).toBe(401);
    expect(await status(h.app)).toBe(401);
  });

  it('refuses a key revoked by the CLI on the very next request to either instance', async () => {
    const b = await startB();
    const cli = createApiKeysService({
      keys: createApiKeysRepository(h.data),
      fence: createApiKeyFence(database()),
    });
    await cli.revoke({ key: key.api_key });
    expect(await status(b)).toBe(401);
    expect(await status(h.app)).toBe(401);
  });

  it('applies a change made in SQL everywhere once the caches acknowledge it', async () => {
    const b = await startB();
    await createApiKeyFence(database()).change(
      (tx) =>
        tx.$executeRaw`UPDATE workspace.api_key SET permissions = '{users.view}' WHERE key = ${key.api_key}`,
    );
    expect(await status(b, 'get_users')).toBe(200);
    expect(await status(b, 'get_api_keys')).toBe(403);
    expect(await status(h.app, 'get_api_keys')).toBe(403);
  });

  it('forgets every key when the table is truncated', async () => {
    const b = await startB();
    await createApiKeyFence(database()).change((tx) => tx.$executeRaw`TRUNCATE workspace.api_key`);
    expect(await status(b)).toBe(401);
    h.admin = await h.issueKey(['global_admin']);
  });

  it('serves a verified key from memory: a change that bypasses the trigger goes unseen', async () => {
    const b = await startB();
    await withoutTrigger(revokeInSql);
    expect(await status(b)).toBe(200);
    // Any later change to the key reaches the caches again.
    await createApiKeyFence(database()).change(
      (tx) =>
        tx.$executeRaw`UPDATE workspace.api_key SET name = 'touched' WHERE key = ${key.api_key}`,
    );
    expect(await status(b)).toBe(401);
  });

  it('looks every key up in the database while its listening connection is down', async () => {
    const cache = createApiKeyCache({ ...database(), reconnectMs: 60_000 });
    const b = await startB(cache);
    await killListeners();
    await until(() => !cache.isLive());
    await withoutTrigger(revokeInSql);
    expect(await status(b)).toBe(401);
    expect(cache.isLive()).toBe(false);
  });

  it('listens again after the connection comes back, with nothing remembered from before', async () => {
    const cache = createApiKeyCache({ ...database(), reconnectMs: 20 });
    const b = await startB(cache);
    await killListeners();
    await until(() => !cache.isLive());
    await until(() => cache.isLive());
    await withoutTrigger(revokeInSql);
    expect(await status(b)).toBe(401);
  });
});

describe('API key cache', () => {
  it('does not remember a lookup that an invalidation overtook', async () => {
    const cache = createApiKeyCache(database());
    bCache = cache;
    await cache.start();
    const row = await h.db.apiKey.findUniqueOrThrow({ where: { key: key.api_key } });
    const before = cache.epoch();
    await createApiKeyFence(database()).change(
      (tx) =>
        tx.$executeRaw`UPDATE workspace.api_key SET name = 'renamed' WHERE key = ${key.api_key}`,
    );
    cache.remember(row, before);
    expect(cache.get(key.api_key)).toBeUndefined();
    cache.remember(row, cache.epoch());
    expect(cache.get(key.api_key)).toBe(row);
  });

  it('holds nothing before it listens', async () => {
    const cache = createApiKeyCache(database());
    const row = await h.db.apiKey.findUniqueOrThrow({ where: { key: key.api_key } });
    cache.remember(row, cache.epoch());
    expect(cache.isLive()).toBe(false);
    expect(cache.get(key.api_key)).toBeUndefined();
  });
});
