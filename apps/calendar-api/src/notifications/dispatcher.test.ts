import { addEvent } from '../../test/factories';
import { eventually } from '../../test/eventually';
import type { Harness } from '../../test/harness';
import { useWebhookWorld, webhooksTo } from '../../test/webhook-world';
import { createGate, type WebhookServer } from '../../test/webhook-server';

let server: WebhookServer;
let h: Harness;
useWebhookWorld(
  (server) => ({
    NOTIFY_WEBHOOKS: webhooksTo(server, 'slack', 'discord'),
    NOTIFY_INTERVAL_MS: '20',
    NOTIFY_TIMEOUT_MS: '1000',
    NOTIFY_BACKOFF_BASE_MS: '40',
    NOTIFY_BACKOFF_MAX_MS: '80',
    NOTIFY_MAX_ATTEMPTS: '3',
  }),
  (world) => ({ server, h } = world),
);

const dispatch = () => h.app.workers.dispatcher.runOnce();
const rows = () => h.db.notification.findMany({ orderBy: { id: 'asc' } });
const row = async (target: string) =>
  h.db.notification.findFirstOrThrow({ where: { target }, orderBy: { id: 'desc' } });
/** A deletion by id: one notification per target. */
async function notifyDeletion(title = 'Unit 5 quiz') {
  const event = await addEvent(h, { title });
  expect((await h.request({ method: 'DELETE', url: `event/${event.id}` })).statusCode).toBe(200);
}
const dueNow = () => h.db.notification.updateMany({ data: { nextAttemptAt: new Date(0) } });

describe('the dispatcher', () => {
  it('delivers each notification once to each target, as JSON in its format', async () => {
    await notifyDeletion();
    expect(await dispatch()).toBe(2);
    expect(await dispatch()).toBe(0);
    expect(server.received).toHaveLength(2);
    const [slack] = server.on('/slack');
    const [discord] = server.on('/discord');
    expect(slack.headers['content-type']).toBe('application/json');
    expect(JSON.parse(slack.body)).toEqual({
      text: expect.stringContaining('🗑️ 1 event removed'),
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: expect.stringContaining('Unit 5 quiz') } },
      ],
    });
    expect(JSON.parse(discord.body)).toMatchObject({
      content: expect.stringContaining('Unit 5 quiz'),
    });
    expect(await rows()).toMatchObject([
      {
        target: 'slack',
        status: 'delivered',
        attempts: 1,
        lastStatus: 200,
        deliveredAt: expect.any(Date),
      },
      { target: 'discord', status: 'delivered', attempts: 1, lastStatus: 200 },
    ]);
  });

  it('keeps quotes, newlines and emoji intact on the wire', async () => {
    const title = 'Say "cheese" 📸\nthen 🎉 at 5 \\o/';
    await notifyDeletion(title);
    await dispatch();
    expect(JSON.parse(server.on('/slack')[0].body).text).toContain(title);
    expect(JSON.parse(server.on('/discord')[0].body).content).toContain(title);
  });

  it('keeps a Discord message within 2000 characters, cut between code points', async () => {
    const title = `${'🎉'.repeat(90)} quiz`;
    for (let day = 3; day <= 14; day += 1) {
      await addEvent(h, { title, date: `2025-03-${String(day).padStart(2, '0')}` });
    }
    await h.request({ method: 'DELETE', url: `delete/${encodeURIComponent(title)}` });
    await dispatch();
    const { content } = JSON.parse(server.on('/discord')[0].body);
    expect(content.length).toBeLessThanOrEqual(2000);
    expect(content.length).toBeGreaterThan(1990);
    expect(content.endsWith('…')).toBe(true);
    expect(content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(await row('discord')).toMatchObject({ status: 'delivered' });
  });

  it('retries after a 500, with backoff', async () => {
    server.respond((request, n) =>
      request.path === '/slack' && n === 1 ? { status: 500, body: 'oops' } : { status: 200 },
    );
    // A backoff no loaded machine outlasts between two statements, so "not yet" holds.
    const patient = await h.otherApp({
      NOTIFY_BACKOFF_BASE_MS: '3000',
      NOTIFY_BACKOFF_MAX_MS: '3000',
    });
    const dispatchPatiently = () => patient.workers.dispatcher.runOnce();
    await notifyDeletion();
    await dispatchPatiently();
    expect(await row('slack')).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: 500,
      lastError: 'HTTP 500 oops',
    });
    expect(await dispatchPatiently()).toBe(0);
    await eventually(async () => {
      await dispatchPatiently();
      expect(await row('slack')).toMatchObject({ status: 'delivered', attempts: 2 });
    });
    expect(server.on('/slack')).toHaveLength(2);
    expect(server.on('/discord')).toHaveLength(1);
  });

  it('gives up after the last attempt', async () => {
    server.respond(() => ({ status: 503 }));
    await notifyDeletion();
    for (let i = 0; i < 3; i += 1) {
      await dueNow();
      await dispatch();
    }
    await dueNow();
    expect(await dispatch()).toBe(0);
    expect(await row('slack')).toMatchObject({ status: 'failed', attempts: 3, lastStatus: 503 });
  });

  it('waits what a 429 Retry-After asks before trying again', async () => {
    server.respond((request, n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    await notifyDeletion();
    h.app.workers.dispatcher.start();
    try {
      await eventually(async () =>
        expect(await row('slack')).toMatchObject({ status: 'delivered' }),
      );
    } finally {
      await h.app.workers.dispatcher.stop();
    }
    const [first, second] = server.on('/slack');
    expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
    // Seconds, not minutes: a wait read as 60 s would end far later.
    expect(second.at - first.at).toBeLessThan(30_000);
  });

  it('marks a notification failed at once on 404', async () => {
    server.respond((request) =>
      request.path === '/discord' ? { status: 404, body: 'Unknown Webhook' } : { status: 200 },
    );
    await notifyDeletion();
    await dispatch();
    await dueNow();
    await dispatch();
    expect(await row('discord')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatus: 404,
      lastError: 'HTTP 404 Unknown Webhook',
    });
    expect(server.on('/discord')).toHaveLength(1);
    expect(await row('slack')).toMatchObject({ status: 'delivered' });
  });

  it('retries a webhook that does not answer in time', async () => {
    const gate = createGate();
    server.respond((request, n) =>
      n === 1 ? { status: 200, after: gate.opened } : { status: 200 },
    );
    await notifyDeletion();
    const started = Date.now();
    await dispatch();
    gate.open();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await row('slack')).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    expect((await row('slack')).lastError).toMatch(/abort|timeout/i);
  });
});
