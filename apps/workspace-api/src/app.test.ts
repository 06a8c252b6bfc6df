import path from 'node:path';
import { findDrift } from '@platform/db/testing';
import { buildApp } from './app';
import { createHarness, testConfig, type Harness } from '../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ BODY_LIMIT_BYTES: '2048' });
});
afterAll(() => h.close());

describe('workspace-api app', () => {
  it('reports live and ready', async () => {
    expect((await h.inject({ url: '/health/live' })).json()).toEqual({ status: 'ok' });
    const ready = await h.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('is not ready, with 503, when its database is unreachable', async () => {
    const app = await buildApp(
      testConfig('postgres://nobody@127.0.0.1:1/none', { DATABASE_TIMEOUT_MS: '500' }),
    );
    const ready = await app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().status).toBe('unavailable');
    const op = await app.inject({
      method: 'POST',
      url: '/api/public/get_users',
      payload: { api_key: 'k', api_key_secret: 's' },
    });
    expect(op.statusCode).toBe(503);
    expect(op.json().code).toBe('UNAVAILABLE');
    await app.close();
  });

  it('serves OpenAPI 3 generated from the route schemas, and the browsable reference', async () => {
    const spec = (await h.inject({ url: '/docs/json' })).json();
    expect(spec.openapi).toMatch(/^3\./);
    for (const op of [
      'create_user',
      'get_user',
      'get_users',
      'update_user',
      'delete_user',
      'logout_user',
      'authenticate',
    ]) {
      expect(spec.paths[`/api/public/${op}`].post).toBeDefined();
    }
    expect(
      spec.paths['/api/public/create_user'].post.requestBody.content['application/json'].schema
        .properties,
    ).toHaveProperty('target_user');
    const page = await h.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('documents the settings operations and the launch plan in OpenAPI', async () => {
    const spec = (await h.inject({ url: '/docs/json' })).json();
    const settings = ['zone', 'agent', 'file_mapping'].flatMap((r) => [
      `create_${r}`,
      `get_${r}s`,
      `update_${r}`,
      `delete_${r}`,
    ]);
    for (const op of [
      ...settings,
      'get_persistent_profile_path',
      'set_persistent_profile_path',
      'get_launch_plan',
    ]) {
      expect([op, spec.paths[`/api/public/${op}`]?.post?.tags]).toEqual([
        op,
        [op === 'get_launch_plan' ? 'workspaces' : 'settings'],
      ]);
    }
  });

  it.each([
    ['malformed JSON', 'application/json', '{"api_key": ', 400, 'INVALID_JSON'],
    ['a non-JSON content type', 'application/xml', '<a/>', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ])('answers %s with %i %s', async (_body, contentType, payload, status, code) => {
    const res = await h.inject({
      method: 'POST',
      url: '/api/public/get_users',
      headers: { 'content-type': contentType },
      payload,
    });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code, error_message: expect.any(String) });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await h.call('create_user', {
      target_user: { username: 'x', notes: 'n'.repeat(4096) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown operation with a 404 problem', async () => {
    const res = await h.call('no_such_operation');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});

describe('migrations', () => {
  it('produce exactly the database that schema.prisma describes (no drift)', async () => {
    const schemaPath = path.resolve(__dirname, '../../../prisma/workspace-api/schema.prisma');
    expect(await findDrift(schemaPath, h.database.url, 'workspace')).toEqual([]);
  });

  it('create the system groups with their fixed ids', async () => {
    const groups = await h.db.group.findMany({ orderBy: { priority: 'asc' } });
    expect(groups.map((g) => [g.id, g.name, g.isSystem])).toEqual([
      ['b578d8e3-4b3f-4a4b-8a4f-2d2a4c6bb1a1', 'Administrators', true],
      ['68d557ac-4cac-42cc-a9f3-1c7c853de0f3', 'All Users', true],
    ]);
  });
});
