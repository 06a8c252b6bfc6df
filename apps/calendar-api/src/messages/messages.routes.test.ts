import { titles, WORKED_EXAMPLE } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import type { EventResponse } from '../events';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ CHANNEL_PERIODS: 'C123=CSA,C456=CSP' });
});
afterAll(() => h.close());
beforeEach(() => h.reset());

/** POST /add of a message from channel C123. */
const addFromC123 = (text: string, messageId: string) =>
  h.post('add', { text, channel: 'C123', message_id: messageId });

const summary = (events: EventResponse[]) =>
  events.map((e) => `${e.date} ${e.title} ${e.type} ${e.period}`);

describe('POST /add', () => {
  it('turns the worked example of the contract into its five events', async () => {
    const res = await addFromC123(WORKED_EXAMPLE, '1741000000.000100');
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.week_start).toBe('2025-03-03');
    expect(body.ignored_lines).toEqual([]);
    expect(summary(body.created)).toEqual([
      '2025-03-03 Unit 5 intro general CSA',
      '2025-03-04 Lab 3 check-in check-in CSA',
      '2025-03-05 Lab 3 check-in check-in CSA',
      '2025-03-06 Lab 3 check-in check-in CSA',
      '2025-03-07 Unit 5 quiz grade CSA',
    ]);
    expect(body.created[0]).toMatchObject({
      description: 'Read ch. 5, Slides posted',
      source: { channel: 'C123', message_id: '1741000000.000100' },
    });
    expect(titles(await h.get('events/2025-03-05'))).toEqual(['2025-03-05 Lab 3 check-in']);
  });

  it('reports the lines it could not read', async () => {
    const res = await h.post('add', {
      text: 'Week of 3/3/2025\nHello class\n[Thu - Tue]: Lab\n[Fri]: Quiz',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().ignored_lines).toEqual([
      { line: 'Hello class', reason: expect.any(String) },
      { line: '[Thu - Tue]: Lab', reason: expect.stringContaining('backwards') },
    ]);
  });

  it('answers 400 naming the line when "Week of" names a date that does not exist, and stores nothing', async () => {
    const res = await addFromC123('Week of 2/30/2025\n[Mon]: Unit 5 intro', '1741000000.000100');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [
        {
          field: 'text',
          message:
            '"Week of" names a date that does not exist: "Week of 2/30/2025"; nothing was stored',
        },
      ],
    });
    expect(await h.db.calendarEvent.count()).toBe(0);
    expect(await h.db.chatMessage.count()).toBe(0);
  });

  it('answers 200 with nothing created for a message that names no event', async () => {
    const res = await addFromC123('Have a nice weekend!', '1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      created: [],
      ignored_lines: [{ line: 'Have a nice weekend!' }],
    });
  });

  it('takes the period from the channel map before the request, else the request, else none', async () => {
    const post = async (body: object) =>
      (await h.post('add', { text: '[Mon]: Intro', ...body })).json().created[0].period;
    expect(await post({ channel: 'C456', period: 'X', message_id: 'a' })).toBe('CSP');
    expect(await post({ channel: 'C999', period: 'X', message_id: 'b' })).toBe('X');
    expect(await post({ channel: 'C999', message_id: 'c' })).toBeNull();
  });

  it('reads a message without a week against the current week of the clock', async () => {
    h.setNow(new Date('2025-03-13T12:00:00Z'));
    const res = await h.post('add', { text: '[Mon]: Intro\n[Fri]: Quiz' });
    expect(res.json().week_start).toBe('2025-03-10');
    expect(summary(res.json().created)).toEqual([
      '2025-03-10 Intro general null',
      '2025-03-14 Quiz general null',
    ]);
  });

  it('computes the current week in CALENDAR_TIMEZONE', async () => {
    // Friday 2025-03-07 17:00 in Los Angeles is already Saturday in UTC, and a weekend means next week.
    const fridayEvening = new Date('2025-03-08T01:00:00Z');
    const la = await createHarness({ CALENDAR_TIMEZONE: 'America/Los_Angeles' });
    try {
      la.setNow(fridayEvening);
      h.setNow(fridayEvening);
      expect((await la.post('add', { text: '[Mon]: Intro' })).json().week_start).toBe('2025-03-03');
      expect((await h.post('add', { text: '[Mon]: Intro' })).json().week_start).toBe('2025-03-10');
    } finally {
      await la.close();
    }
  });

  it('lets week_start (or weekStartDate) override a "Week of" line', async () => {
    const text = 'Week of 3/3/2025\n[Mon]: Intro';
    expect((await h.post('add', { text, week_start: '2025-04-07' })).json().created[0].date).toBe(
      '2025-04-07',
    );
    expect(
      (await h.post('add', { text, weekStartDate: '2025-05-05' })).json().created[0].date,
    ).toBe('2025-05-05');
  });

  it.each([
    ['a week_start that does not exist', { week_start: '2025-02-30' }],
    ['a US-style weekStartDate', { weekStartDate: '03/03/2025' }],
    ['a missing text', { text: undefined }],
    ['a text that is not a string', { text: 42 }],
  ])('answers 400 VALIDATION_FAILED for %s', async (_case, change) => {
    const res = await h.post('add', { text: '[Mon]: Intro', ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});

describe('POST /add, posting a message again', () => {
  const message = { text: WORKED_EXAMPLE, channel: 'C123', message_id: '1741000000.000100' };

  it('creates nothing the second time and answers 200', async () => {
    await h.post('add', message);
    const again = await h.post('add', message);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ week_start: '2025-03-03', created: [] });
    expect(await h.db.calendarEvent.count()).toBe(5);
  });

  it("accepts Slack's ts as the message id", async () => {
    const { message_id: ts, ...rest } = message;
    await h.post('add', { ...rest, ts });
    expect((await h.post('add', { ...rest, message_id: ts })).json().created).toEqual([]);
    expect(await h.db.calendarEvent.count()).toBe(5);
  });

  it('recognises a message without an id by its channel, week and text', async () => {
    const text = 'Week of 3/3/2025\n[Mon]: Intro';
    expect((await h.post('add', { text, channel: 'C1' })).statusCode).toBe(201);
    expect((await h.post('add', { text, channel: 'C1' })).statusCode).toBe(200);
    expect((await h.post('add', { text, channel: 'C2' })).statusCode).toBe(201);
    expect(
      (await h.post('add', { text, channel: 'C1', week_start: '2025-03-10' })).statusCode,
    ).toBe(201);
    expect(await h.db.calendarEvent.count()).toBe(3);
  });

  it('replaces the events of that message, and only those, when its text changed', async () => {
    await h.post('add', { text: '[Mon]: Unrelated', channel: 'C123', message_id: 'other' });
    await h.post('add', message);
    const edited = WORKED_EXAMPLE.replace('[Fri]: ** Unit 5 quiz', '[Fri]: ** Unit 5 test');
    const res = await h.post('add', { ...message, text: edited });
    expect(res.statusCode).toBe(201);
    expect(res.json().created).toHaveLength(5);
    const rows = await h.db.calendarEvent.findMany({ orderBy: [{ date: 'asc' }, { id: 'asc' }] });
    expect(rows.map((e) => e.title)).toEqual([
      'Unrelated',
      'Unit 5 intro',
      'Lab 3 check-in',
      'Lab 3 check-in',
      'Lab 3 check-in',
      'Unit 5 test',
    ]);
  });

  it('removes the events of a message edited to name none', async () => {
    await h.post('add', message);
    const res = await h.post('add', { ...message, text: 'Plans changed, more soon' });
    expect(res.statusCode).toBe(200);
    expect(await h.db.calendarEvent.count()).toBe(0);
  });

  it('stores one set of events for concurrent identical posts', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => h.post('add', message)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    expect(await h.db.calendarEvent.count()).toBe(5);
    expect(await h.db.chatMessage.count()).toBe(1);
  });

  it('stores one set of events for concurrent identical posts without a message id', async () => {
    const withoutId = { text: message.text, channel: message.channel };
    await Promise.all(Array.from({ length: 5 }, () => h.post('add', withoutId)));
    expect(await h.db.calendarEvent.count()).toBe(5);
  });
});
