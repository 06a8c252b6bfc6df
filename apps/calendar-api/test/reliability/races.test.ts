import type { FastifyInstance } from 'fastify';
import { formatCounts } from '@platform/testing';
import { addEvent } from '../factories';
import type { Harness } from '../harness';
import { messageChanged, messagePosted } from '../slack-payloads';
import { sendToSlackRoute, SIGNING_SECRET } from '../slack-signing';
import type { WebhookServer } from '../webhook-server';
import { useWebhookWorld, webhooksTo } from '../webhook-world';

// RACE_CONCURRENCY and RACE_ROUNDS make the races wider and longer on purpose.
const CONCURRENCY = Number(process.env.RACE_CONCURRENCY ?? 12);
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 3);
const PLAN = 'Week of 3/3/2025\n[Mon]: Unit 5 intro\n[Tue - Thu]: * Lab 3\n[Fri]: ** Unit 5 quiz';
const PLAN_EVENTS = 5;

let server: WebhookServer;
let h: Harness;
let replicas: FastifyInstance[];
useWebhookWorld(
  (server) => ({
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    NOTIFY_WEBHOOKS: webhooksTo(server, 'slack', 'discord'),
  }),
  (world) => ({ server, h } = world),
);
beforeAll(async () => {
  replicas = [h.app, await h.otherApp(), await h.otherApp()];
});

const report = (line: string) => process.stdout.write(`calendar-api races: ${line}\n`);
const statusCounts = (statuses: (number | string)[]) =>
  formatCounts(
    statuses.reduce<Record<string, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}),
  );

describe('races', () => {
  it('stores concurrent posts of the same chat message once, on every replica', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const message = { text: PLAN, channel: 'C1', message_id: `1741000000.00${round}` };
      const results = await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, i) =>
          replicas[i % replicas.length].inject({
            method: 'POST',
            url: '/api/calendar/add',
            payload: message,
            headers: { authorization: `Bearer ${h.token}` },
          }),
        ),
      );
      const statuses = results.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 200)).toHaveLength(CONCURRENCY - 1);
      if (round === 0)
        report(
          `${CONCURRENCY} concurrent posts of one message ×${ROUNDS}: ${statusCounts(statuses)}`,
        );
    }
    expect(await h.db.calendarEvent.count()).toBe(PLAN_EVENTS * ROUNDS);
    expect(await h.db.chatMessage.count()).toBe(ROUNDS);
    expect(await h.db.notification.count()).toBe(2 * ROUNDS);
  });

  it('records a Slack event delivered concurrently (Slack retrying) once, and applies it once', async () => {
    const payload = messagePosted('C2', '1741000100.000100', PLAN);
    const results = await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) =>
        sendToSlackRoute(replicas[i % replicas.length], payload),
      ),
    );
    const receipts = results.map((r) => (r.statusCode === 200 ? r.json().status : r.statusCode));
    expect(receipts.filter((s) => s === 'recorded')).toHaveLength(1);
    expect(receipts.filter((s) => s === 'duplicate')).toHaveLength(CONCURRENCY - 1);
    await Promise.all(replicas.map((app) => app.workers.slackInbox.runOnce()));
    expect(await h.db.slackInbox.count()).toBe(1);
    expect(await h.db.calendarEvent.count()).toBe(PLAN_EVENTS);
    report(`${CONCURRENCY} concurrent deliveries of one Slack event: ${statusCounts(receipts)}`);
  });

  it('applies queued Slack events exactly once and in order with three inbox workers racing', async () => {
    const messages = Array.from(
      { length: CONCURRENCY },
      (_, i) => `1741000200.${String(i).padStart(6, '0')}`,
    );
    for (const ts of messages) {
      await sendToSlackRoute(h.app, messagePosted('C3', ts, PLAN));
      // Every message is then edited: the edit must be applied after the post, never before.
      await sendToSlackRoute(h.app, messageChanged('C3', ts, '[Mon]: Edited', PLAN));
    }
    const handled = await Promise.all(
      replicas.flatMap((app) => [
        app.workers.slackInbox.runOnce(),
        app.workers.slackInbox.runOnce(),
      ]),
    );
    while (
      (await Promise.all(replicas.map((app) => app.workers.slackInbox.runOnce()))).some(
        (n) => n > 0,
      )
    );
    const inbox = await h.db.slackInbox.groupBy({ by: ['status'], _count: true });
    expect(inbox).toEqual([{ status: 'done', _count: 2 * CONCURRENCY }]);
    expect((await h.db.slackInbox.findMany()).every((row) => row.attempts === 1)).toBe(true);
    const events = await h.db.calendarEvent.findMany();
    expect(events).toHaveLength(CONCURRENCY);
    expect(new Set(events.map((e) => e.title))).toEqual(new Set(['Edited']));
    report(
      `${2 * CONCURRENCY} queued Slack events, 3 workers ×2 rounds at once: first rounds handled ${handled.join('+')}, ` +
        'each applied once, every edit after its post',
    );
  });

  it('delivers each notification once per target with three dispatchers racing', async () => {
    for (let i = 0; i < CONCURRENCY; i += 1) {
      const event = await addEvent(h, { title: `Race ${i}` });
      await h.request({ method: 'DELETE', url: `event/${event.id}` });
    }
    const handled = await Promise.all(replicas.map((app) => app.workers.dispatcher.runOnce()));
    while (
      (await Promise.all(replicas.map((app) => app.workers.dispatcher.runOnce()))).some(
        (n) => n > 0,
      )
    );
    const deliveries = server.received.map((r) => `${r.path} ${r.headers['x-notification-id']}`);
    expect(deliveries).toHaveLength(2 * CONCURRENCY);
    expect(new Set(deliveries).size).toBe(2 * CONCURRENCY);
    expect(await h.db.notification.count({ where: { status: 'delivered', attempts: 1 } })).toBe(
      2 * CONCURRENCY,
    );
    report(
      `${2 * CONCURRENCY} notifications, 3 dispatchers at once: claimed ${handled.join('+')}, each delivered once`,
    );
  });

  it('lets exactly one of concurrent changes with the same If-Match win; the others get 412', async () => {
    const event = await addEvent(h, { title: 'Contended' });
    const etag = (await h.get(`event/${event.id}`)).headers.etag as string;
    const results = await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) =>
        replicas[i % replicas.length].inject({
          method: 'PATCH',
          url: `/api/calendar/event/${event.id}`,
          payload: { title: `Winner ${i}` },
          headers: { authorization: `Bearer ${h.token}`, 'if-match': etag },
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(CONCURRENCY - 1);
    const winner = results.find((r) => r.statusCode === 200)?.json().title;
    expect((await h.db.calendarEvent.findUniqueOrThrow({ where: { id: event.id } })).title).toBe(
      winner,
    );
    report(`${CONCURRENCY} concurrent PATCHes with one If-Match: ${statusCounts(statuses)}`);
  });
});
