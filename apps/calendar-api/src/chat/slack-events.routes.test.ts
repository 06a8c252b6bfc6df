import { eventually } from '../../test/eventually';
import { createHarness, type Harness } from '../../test/harness';
import {
  appMessage,
  botMessage,
  messageChanged,
  messageDeleted,
  messagePosted,
  urlVerification,
} from '../../test/slack-payloads';
import { SIGNING_SECRET, sendToSlackRoute } from '../../test/slack-signing';
import { PLAN, SLACK_ENV, slackWorld, TS } from '../../test/slack-world';
import { slackSignature } from './slack-signature';

let h: Harness;
beforeAll(async () => {
  h = await createHarness(SLACK_ENV);
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const { send, process, eventRows, summary } = slackWorld(() => h);

describe('POST /slack/events, signatures', () => {
  it('answers the url_verification challenge', async () => {
    const res = await send(urlVerification('3eZbrw1aBm'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ challenge: '3eZbrw1aBm' });
  });

  it.each([
    ['a wrong signature', { signature: `v0=${'0'.repeat(64)}` }],
    ['a signature made with another secret', { secret: 'not-the-secret' }],
    ['a request signed 6 minutes ago', { ageSeconds: 360 }],
  ])('answers 401 problem+json to %s and stores nothing', async (_case, options) => {
    const res = await send(messagePosted('C123', TS, PLAN), options);
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 401, code: 'SLACK_SIGNATURE_INVALID' });
    expect(await h.db.slackInbox.count()).toBe(0);
  });

  it('refuses a body changed after signing', async () => {
    const body = JSON.stringify(messagePosted('C123', TS, PLAN));
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = slackSignature(SIGNING_SECRET, timestamp, Buffer.from(body));
    const post = (payload: string) =>
      h.request({
        method: 'POST',
        url: 'slack/events',
        token: null,
        payload,
        headers: {
          'content-type': 'application/json',
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': signature,
        },
      });
    expect((await post(body.replace('Unit 5', 'Unit 6'))).statusCode).toBe(401);
    expect((await post(body)).statusCode).toBe(200);
  });

  it('answers 401 without the Slack headers', async () => {
    const res = await h.request({
      method: 'POST',
      url: 'slack/events',
      token: null,
      payload: urlVerification('x'),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toMatch(/X-Slack-Signature/);
  });

  it('needs no bearer token, while other routes still do and still parse JSON', async () => {
    expect((await h.request({ method: 'GET', url: 'events', token: null })).statusCode).toBe(401);
    const add = await h.post('add', { text: '[Mon]: Intro', channel: 'C9', message_id: '1' });
    expect(add.statusCode).toBe(201);
  });

  it('answers 400 to a signed body that is not JSON', async () => {
    const res = await send('not json');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('INVALID_JSON');
  });
});

describe('POST /slack/events, messages', () => {
  it('stores a message and answers before reading it; the worker then makes its events', async () => {
    const res = await send(messagePosted('C123', TS, PLAN));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'recorded' });
    expect(await h.db.slackInbox.findMany()).toMatchObject([
      { channel: 'C123', messageTs: TS, status: 'pending' },
    ]);
    expect(await h.db.calendarEvent.count()).toBe(0);

    expect(await process()).toBe(1);
    expect(await summary()).toEqual([
      '2025-03-03 Unit 5 intro CSA',
      '2025-03-04 Lab 3 CSA',
      '2025-03-05 Lab 3 CSA',
      '2025-03-06 Lab 3 CSA',
      '2025-03-07 Unit 5 quiz CSA',
    ]);
    expect((await eventRows())[0]).toMatchObject({ sourceChannel: 'C123', sourceMessageId: TS });
    expect(await h.db.slackInbox.findFirst()).toMatchObject({ status: 'done', attempts: 1 });
    expect(await h.db.notification.findMany()).toMatchObject([{ action: 'created' }]);
  });

  it('does nothing for a repeated event_id, as Slack retries send it', async () => {
    const payload = messagePosted('C123', TS, PLAN);
    await send(payload);
    const retry = await send(payload, {
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ status: 'duplicate' });
    await process();
    const again = await send(payload, { headers: { 'x-slack-retry-num': '2' } });
    expect(again.json()).toEqual({ status: 'duplicate' });
    expect(await process()).toBe(0);
    expect(await h.db.slackInbox.count()).toBe(1);
    expect(await h.db.calendarEvent.count()).toBe(5);
  });

  it('replaces the events of an edited message (message_changed)', async () => {
    await send(messagePosted('C123', TS, PLAN));
    await process();
    await send(messageChanged('C123', TS, PLAN.replace('Unit 5 quiz', 'Unit 5 test'), PLAN));
    await process();
    expect((await summary()).at(-1)).toBe('2025-03-07 Unit 5 test CSA');
    expect(await h.db.calendarEvent.count()).toBe(5);
    const actions = (await h.db.notification.findMany({ orderBy: { id: 'asc' } })).map(
      (n) => n.action,
    );
    expect(actions).toEqual(['created', 'replaced']);
  });

  it('removes the events of a deleted message (message_deleted), and only those', async () => {
    await send(messagePosted('C123', TS, PLAN));
    await send(messagePosted('C123', '1741000999.000200', '[Mon]: Other'));
    await process();
    await send(messageDeleted('C123', TS, PLAN));
    expect(await process()).toBe(1);
    expect(await summary()).toEqual(['2025-03-03 Other CSA']);
    const last = await h.db.notification.findFirst({ orderBy: { id: 'desc' } });
    expect(last).toMatchObject({ action: 'deleted', content: { total: 5 } });
  });

  it('applies an edit stored before its original was processed after the original', async () => {
    await send(messagePosted('C123', TS, PLAN));
    await send(messageChanged('C123', TS, '[Wed]: Only this', PLAN));
    expect(await process()).toBe(2);
    expect(await summary()).toEqual(['2025-03-05 Only this CSA']);
  });

  it.each([
    ['a bot_message', botMessage('C123', TS, PLAN)],
    ["an app's post", appMessage('C123', TS, PLAN)],
    ["this service's own post", appMessage('C123', TS, PLAN, 'A0OWN')],
  ])('ignores %s without storing it', async (_case, payload) => {
    const res = await send(payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ignored' });
    expect(await h.db.slackInbox.count()).toBe(0);
  });

  it('answers a very long message at once and reads it in the background', async () => {
    const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `[${days[i % 5]}]: Item ${i} ${'x'.repeat(20)}`,
    );
    const started = Date.now();
    const res = await send(messagePosted('C123', TS, `Week of 3/3/2025\n${lines.join('\n')}`));
    expect(res.statusCode).toBe(200);
    // "At once" is shown by what the answer did not wait for, not by a clock.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await h.db.slackInbox.findFirst()).toMatchObject({ status: 'pending' });
    expect(await h.db.calendarEvent.count()).toBe(0);
    await process();
    expect(await h.db.calendarEvent.count()).toBe(3000);
  });

  it('retries an event whose processing failed, keeping it pending meanwhile', async () => {
    await send(messagePosted('C123', TS, PLAN));
    await h.database.query('ALTER TABLE calendar.calendar_event RENAME TO calendar_event_away');
    try {
      expect(await process()).toBe(1);
    } finally {
      await h.database.query('ALTER TABLE calendar.calendar_event_away RENAME TO calendar_event');
    }
    const failed = await h.db.slackInbox.findFirstOrThrow();
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed.lastError).toMatch(/calendar_event/);
    expect(await h.db.chatMessage.count()).toBe(0);
    await h.db.slackInbox.update({
      where: { id: failed.id },
      data: { nextAttemptAt: new Date(0) },
    });
    expect(await process()).toBe(1);
    expect(await h.db.slackInbox.findFirst()).toMatchObject({ status: 'done', attempts: 2 });
    expect(await h.db.calendarEvent.count()).toBe(5);
  });
});

describe('the Slack inbox in another process', () => {
  it('is processed by the next process that runs the worker', async () => {
    await send(messagePosted('C123', TS, PLAN));
    const next = await h.otherApp({ SLACK_INBOX_WORKER: 'on', SLACK_INBOX_INTERVAL_MS: '20' });
    await next.ready();
    await eventually(async () => expect(await h.db.calendarEvent.count()).toBe(5));
    await next.close();
    expect(await h.db.slackInbox.findFirst()).toMatchObject({ status: 'done' });
  });

  it("leaves a message's edit alone while another worker holds the original", async () => {
    await send(messagePosted('C123', TS, PLAN));
    await send(messageChanged('C123', TS, '[Wed]: Edited', PLAN));
    const other = await h.otherApp();
    await h.db.$transaction(async (tx) => {
      // A worker elsewhere, slow with the original post: its row is locked.
      await tx.$queryRaw`SELECT id FROM calendar.slack_inbox ORDER BY id LIMIT 1 FOR UPDATE`;
      expect(await other.workers.slackInbox.runOnce()).toBe(0);
    });
    expect(await other.workers.slackInbox.runOnce()).toBe(2);
    expect(await summary()).toEqual(['2025-03-05 Edited CSA']);
  });

  it('is processed right away by a running worker', async () => {
    const running = await h.otherApp({
      SLACK_INBOX_WORKER: 'on',
      SLACK_INBOX_INTERVAL_MS: '60000',
    });
    await running.ready();
    const res = await sendToSlackRoute(running, messagePosted('C123', TS, PLAN));
    expect(res.statusCode).toBe(200);
    await eventually(async () => expect(await h.db.calendarEvent.count()).toBe(5));
    await running.close();
  });
});
