import path from 'node:path';
import { createTestDatabase, findDrift, type TestDatabase } from '@platform/db/testing';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadConfig } from './config';
import { MIGRATIONS_DIR } from './migrations';

let database: TestDatabase;
let app: FastifyInstance;
beforeAll(async () => {
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
  app = await buildApp(loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }));
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('calendar-api app', () => {
  it('reports live and ready', async () => {
    expect((await app.inject({ url: '/health/live' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/health/ready' })).json()).toEqual({
      status: 'ok',
      checks: { database: 'ok' },
    });
  });

  it('serves its OpenAPI document', async () => {
    const spec = (await app.inject({ url: '/docs/json' })).json();
    expect(spec.info.title).toBe('calendar-api');
    expect(spec.paths['/health/ready']).toBeDefined();
    expect(
      Object.keys(spec.paths)
        .filter((p) => p.startsWith('/api/calendar/'))
        .sort(),
    ).toEqual([
      '/api/calendar/add',
      '/api/calendar/add_event',
      '/api/calendar/calendar.ics',
      '/api/calendar/delete/{title}',
      '/api/calendar/edit/{title}',
      '/api/calendar/event/{id}',
      '/api/calendar/events',
      '/api/calendar/events/next-day',
      '/api/calendar/events/range',
      '/api/calendar/events/type/{type}',
      '/api/calendar/events/{date}',
      '/api/calendar/feeds',
      '/api/calendar/feeds/{id}',
      '/api/calendar/feeds/{id}/rotate',
      '/api/calendar/notifications',
      '/api/calendar/private.ics',
      '/api/calendar/slack/events',
    ]);
    expect(spec.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('answers unknown routes with a problem+json 404', async () => {
    const res = await app.inject({ url: '/api/calendar/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
  });

  it('owns a migrated calendar schema that matches schema.prisma', async () => {
    const rows = await database.query<{ migration_name: string }>(
      'SELECT migration_name FROM calendar._prisma_migrations',
    );
    expect(rows.map((r) => r.migration_name)).toEqual([
      '20261121000000_init',
      '20261122000000_events_messages_tokens',
      '20261123000000_slack_inbox_notifications',
      '20261130000000_ingest_chat_message',
      '20261222000000_slack_inbox_ignored',
      '20261222000100_event_sequence',
      '20261222000200_chat_message_version',
      '20261222000300_scheduled_notice',
      '20261223000000_recurrence',
      '20261223000100_sequence_on_rule_change',
      '20261226060000_token_scope_feed_address',
    ]);
    const schemaPath = path.resolve(__dirname, '../../../prisma/calendar-api/schema.prisma');
    expect(await findDrift(schemaPath, database.url, 'calendar')).toEqual([]);
  });
});
