import { addEvent } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import type { NotificationResponse } from './notifications.schemas';

const ENV = {
  NOTIFY_WEBHOOKS: 'slack=http://127.0.0.1:9/slack,discord=http://127.0.0.1:9/discord',
  CHANNEL_PERIODS: 'C123=CSA',
};
const PLAN = 'Week of 3/3/2025\n[Mon]: Intro\n[Tue - Wed]: Lab';
const message = { text: PLAN, channel: 'C123', message_id: '1741000000.000100' };

let h: Harness;
beforeAll(async () => {
  h = await createHarness(ENV);
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const log = async (query = ''): Promise<NotificationResponse[]> =>
  (await h.get(`notifications${query}`)).json();
const actions = async () =>
  (await h.db.notification.findMany({ orderBy: { id: 'asc' } })).map(
    (n) => `${n.target} ${n.action} ${(n.content as { total: number }).total}`,
  );
const send = (method: 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  h.request({ method, url, payload });

describe('notifications written with each change', () => {
  it('records one per target when a message creates events, and none when it is posted again', async () => {
    await h.post('add', message);
    await h.post('add', message);
    expect(await actions()).toEqual(['slack created 3', 'discord created 3']);
    const [row] = await h.db.notification.findMany({ where: { target: 'slack' } });
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 0,
      content: {
        source: { channel: 'C123', message_id: message.message_id },
        events: [{ date: '2025-03-03', title: 'Intro', type: 'general', period: 'CSA' }, {}, {}],
      },
    });
  });

  it('records "replaced" for an edited message, "deleted" when the edit names no event', async () => {
    await h.post('add', message);
    await h.post('add', { ...message, text: `${PLAN}\n[Fri]: Quiz` });
    await h.post('add', { ...message, text: 'Plans changed' });
    expect((await actions()).filter((a) => a.startsWith('slack'))).toEqual([
      'slack created 3',
      'slack replaced 4',
      'slack deleted 4',
    ]);
  });

  it('records edits and deletions by title and by id', async () => {
    const a = await addEvent(h, { title: 'Quiz', date: '2025-03-03' });
    await addEvent(h, { title: 'Quiz', date: '2025-03-04' });
    const c = await addEvent(h, { title: 'Lab' });
    expect(await actions()).toEqual([]);
    expect((await send('PUT', 'edit/Quiz', { newTitle: 'Test' })).statusCode).toBe(200);
    expect((await send('PATCH', `event/${c.id}`, { title: 'Lab 2' })).statusCode).toBe(200);
    expect((await send('DELETE', `event/${a.id}`)).statusCode).toBe(200);
    expect((await send('DELETE', 'delete/Test')).statusCode).toBe(200);
    expect((await actions()).filter((x) => x.startsWith('slack'))).toEqual([
      'slack updated 2',
      'slack updated 1',
      'slack deleted 1',
      'slack deleted 1',
    ]);
  });

  it('says what an edit by id changed, was → now, and only what changed', async () => {
    const quiz = await addEvent(h, { title: 'Quiz', date: '2025-03-06', description: 'Ch. 5' });
    const res = await send('PATCH', `event/${quiz.id}`, {
      title: 'Unit 5 quiz',
      date: '2025-03-07',
      description: 'Ch. 5',
      type: 'grade',
    });
    expect(res.statusCode).toBe(200);
    const [slack] = await log();
    expect(slack.events).toEqual([
      {
        id: quiz.id,
        date: '2025-03-07',
        title: 'Unit 5 quiz',
        type: 'grade',
        period: null,
        changes: [
          { field: 'title', was: 'Quiz', now: 'Unit 5 quiz' },
          { field: 'date', was: '2025-03-06', now: '2025-03-07' },
        ],
      },
    ]);
    expect(slack.text).toBe(
      [
        '✏️ 1 event changed',
        '• Fri 2025-03-07: Unit 5 quiz (grade)',
        '    title: "Quiz" → "Unit 5 quiz"',
        '    date: Thu 2025-03-06 → Fri 2025-03-07',
      ].join('\n'),
    );
  });

  it('says what an edit by title changed on each event', async () => {
    await addEvent(h, { title: 'Lab', date: '2025-03-03' });
    await addEvent(h, { title: 'Lab', date: '2025-03-04', description: 'Goggles' });
    const res = await send('PUT', 'edit/Lab', { description: 'Goggles' });
    expect(res.statusCode).toBe(200);
    const [slack] = await log();
    expect(slack.events.map((e) => e.changes)).toEqual([
      [{ field: 'description', was: '', now: 'Goggles' }],
      undefined,
    ]);
    expect(slack.text).toContain('    description: (none) → "Goggles"');
  });

  it('records nothing for a change that did not happen', async () => {
    const event = await addEvent(h);
    expect((await send('DELETE', 'delete/Nothing')).statusCode).toBe(404);
    expect((await send('PATCH', 'event/999', { title: 'x' })).statusCode).toBe(404);
    const stale = await h.request({
      method: 'DELETE',
      url: `event/${event.id}`,
      headers: { 'if-match': '"stale"' },
    });
    expect(stale.statusCode).toBe(412);
    expect(await h.db.notification.count()).toBe(0);
  });

  it('makes no change when its notification cannot be written: one transaction', async () => {
    const event = await addEvent(h, { title: 'Quiz' });
    await h.database.query('ALTER TABLE calendar.notification RENAME TO notification_away');
    try {
      expect((await send('PUT', 'edit/Quiz', { newTitle: 'Test' })).statusCode).toBe(500);
      expect((await send('DELETE', `event/${event.id}`)).statusCode).toBe(500);
      expect((await h.post('add', message)).statusCode).toBe(500);
    } finally {
      await h.database.query('ALTER TABLE calendar.notification_away RENAME TO notification');
    }
    expect(await h.db.calendarEvent.findMany()).toMatchObject([{ id: event.id, title: 'Quiz' }]);
    expect(await h.db.chatMessage.count()).toBe(0);
  });
});

describe('GET /notifications', () => {
  it('shows the log, newest first, with the message as text', async () => {
    await h.post('add', message);
    await send('DELETE', 'delete/Lab');
    const rows = await log();
    expect(rows.map((n) => `${n.target} ${n.action} ${n.status}`)).toEqual([
      'discord deleted pending',
      'slack deleted pending',
      'discord created pending',
      'slack created pending',
    ]);
    expect(rows[3]).toMatchObject({
      attempts: 0,
      total: 3,
      last_status: null,
      last_error: null,
      delivered_at: null,
      source: { channel: 'C123' },
      text: '📅 3 events added\n• Mon 2025-03-03: Intro (CSA)\n• Tue 2025-03-04: Lab (CSA)\n• Wed 2025-03-05: Lab (CSA)',
    });
    expect(rows[3].next_attempt_at).toEqual(expect.any(String));
  });

  it('filters by status', async () => {
    await h.post('add', message);
    const [first] = await h.db.notification.findMany({ orderBy: { id: 'asc' } });
    await h.db.notification.update({ where: { id: first.id }, data: { status: 'failed' } });
    expect((await log('?status=failed')).map((n) => n.id)).toEqual([first.id]);
    expect(await log('?status=pending')).toHaveLength(1);
    expect(await log('?status=delivered')).toEqual([]);
  });

  it('pages with a Link rel="next" header', async () => {
    for (const title of ['A', 'B', 'C']) {
      await addEvent(h, { title });
      await send('DELETE', `delete/${title}`);
    }
    const first = await h.get('notifications?limit=4');
    expect(first.json()).toHaveLength(4);
    const link = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)?.[1];
    expect(link).toMatch(/limit=4&before_id=\d+$/);
    const second = await h.get(link as string);
    expect(second.json()).toHaveLength(2);
    expect(second.headers.link).toBeUndefined();
    const ids = [...first.json(), ...second.json()].map((n: NotificationResponse) => n.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
  });

  it('needs a token even where reads are open: delivery errors name internal hosts', async () => {
    await h.post('add', message);
    const anonymous = await h.request({ method: 'GET', url: 'notifications', token: null });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="calendar-api"');
    expect(anonymous.body).not.toContain('127.0.0.1');
    const { token } = await h.tokens.create('reader', { scope: 'read' });
    const reader = await h.request({ method: 'GET', url: 'notifications', token });
    expect(reader.statusCode).toBe(200);
    expect(reader.json()).toHaveLength(2);
  });

  it('answers 400 to an unknown status', async () => {
    const res = await h.get('notifications?status=lost');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});

describe('without any target', () => {
  it('records nothing and fails nothing', async () => {
    const quiet = await createHarness();
    try {
      expect((await quiet.post('add', message)).statusCode).toBe(201);
      expect((await quiet.request({ method: 'DELETE', url: 'delete/Lab' })).statusCode).toBe(200);
      expect(await quiet.db.notification.count()).toBe(0);
      expect(await quiet.app.workers.dispatcher.runOnce()).toBe(0);
      expect((await quiet.get('notifications')).json()).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
