import ICAL from 'ical.js';
import { addEvent } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    CALENDAR_UID_DOMAIN: 'calendar.example.org',
    CALENDAR_NAME: 'CSA plan',
  });
});
afterAll(() => h.close());
beforeEach(() => h.reset());

interface FeedEvent {
  uid: string;
  summary: string;
  description: string | null;
  start: string;
  end: string;
  allDay: boolean;
  categories: string[];
  lastModified: string;
  sequence: number;
}

async function feed(query = '') {
  const res = await h.get(`calendar.ics${query}`);
  expect(res.statusCode).toBe(200);
  const calendar = new ICAL.Component(ICAL.parse(res.body));
  const events: FeedEvent[] = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      allDay: event.startDate.isDate && event.endDate.isDate,
      categories: vevent.getAllProperties('categories').flatMap((p) => p.getValues() as string[]),
      lastModified: String(vevent.getFirstPropertyValue('last-modified')),
      sequence: event.sequence,
    };
  });
  return { res, calendar, events };
}

describe('GET /calendar.ics', () => {
  it('is a text/calendar feed that an iCalendar parser reads', async () => {
    await addEvent(h, {
      date: '2025-03-07',
      title: 'Unit 5 quiz',
      type: 'grade',
      description: 'Ch. 5',
    });
    const { res, calendar, events } = await feed();
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toMatch(/calendar-api/);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('CSA plan');
    expect(events).toEqual([
      {
        uid: expect.stringMatching(/^event-\d+@calendar\.example\.org$/),
        summary: 'Unit 5 quiz',
        description: 'Ch. 5',
        start: '2025-03-07',
        end: '2025-03-08',
        allDay: true,
        categories: ['grade'],
        lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        sequence: 0,
      },
    ]);
    expect(res.body).toMatch(/\r\nDTSTART;VALUE=DATE:20250307\r\nDTEND;VALUE=DATE:20250308\r\n/);
    expect(res.body).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
  });

  it('ends every line with CRLF, the last one too, and folds lines at 75 octets', async () => {
    await addEvent(h, { title: `Lab ${'🎉 é '.repeat(40)}`.trim(), description: 'x'.repeat(400) });
    const body = Buffer.from((await h.get('calendar.ics')).rawPayload).toString('utf8');
    expect(body.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(body.endsWith('\r\n\r\n')).toBe(false);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = body.split('\r\n').slice(0, -1);
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
  });

  it('raises SEQUENCE each time the date of an event changes, and only then', async () => {
    const quiz = await addEvent(h, { title: 'Quiz', date: '2025-03-07' });
    const patch = (payload: object) =>
      h.request({ method: 'PATCH', url: `event/${quiz.id}`, payload });
    const sequence = async () => (await feed()).events.map((e) => `${e.start} ${e.sequence}`);
    expect(await sequence()).toEqual(['2025-03-07 0']);
    await patch({ title: 'Unit quiz', description: 'Ch. 5' });
    expect(await sequence()).toEqual(['2025-03-07 0']);
    await patch({ date: '2025-03-10' });
    expect(await sequence()).toEqual(['2025-03-10 1']);
    await patch({ date: '2025-03-10', title: 'Unit 5 quiz' });
    expect(await sequence()).toEqual(['2025-03-10 1']);
    await patch({ date: '2025-03-11' });
    expect(await sequence()).toEqual(['2025-03-11 2']);
    expect((await h.get(`event/${quiz.id}`)).json()).toMatchObject({ date: '2025-03-11' });
  });

  it('raises SEQUENCE when the rule or the exceptions of a recurring event change', async () => {
    const lab = await addEvent(h, {
      title: 'Lab',
      date: '2025-03-03',
      recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4', exdates: [] },
    });
    const patch = (recurrence: object) =>
      h.request({ method: 'PATCH', url: `event/${lab.id}`, payload: { recurrence } });
    const sequence = async () => (await feed()).events.map((e) => e.sequence);
    expect(await sequence()).toEqual([0]);
    expect(
      (await patch({ rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4', exdates: ['2025-03-10'] })).statusCode,
    ).toBe(200);
    expect(await sequence()).toEqual([1]);
    expect(
      (await patch({ rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=6', exdates: ['2025-03-10'] })).statusCode,
    ).toBe(200);
    expect(await sequence()).toEqual([2]);
  });

  it('keeps every UID stable across requests and changes', async () => {
    const quiz = await addEvent(h, { title: 'Quiz' });
    const before = (await feed()).events;
    await addEvent(h, { title: 'Lab', date: '2025-03-01' });
    await h.request({ method: 'PATCH', url: `event/${quiz.id}`, payload: { title: 'Test' } });
    const after = (await feed()).events;
    expect(before.map((e) => e.uid)).toEqual([`event-${quiz.id}@calendar.example.org`]);
    expect(after.find((e) => e.summary === 'Test')?.uid).toBe(before[0].uid);
    expect(new Set(after.map((e) => e.uid)).size).toBe(2);
  });

  it('ends an event on the last day of a month or year on the next day', async () => {
    await addEvent(h, { date: '2024-02-29', title: 'Leap' });
    await addEvent(h, { date: '2025-12-31', title: 'Eve' });
    expect((await feed()).events.map((e) => `${e.start}/${e.end}`)).toEqual([
      '2024-02-29/2024-03-01',
      '2025-12-31/2026-01-01',
    ]);
  });

  it('carries commas, semicolons, quotes, newlines and emoji through', async () => {
    // Long enough to be folded across lines, with emoji where the folds fall.
    const title = `Lab; part 1, "pairs" ${'🎉 é '.repeat(30)}`.trim().slice(0, 200);
    await addEvent(h, { title, description: 'Line 1\nLine 2, with a \\ backslash' });
    const [event] = (await feed()).events;
    expect(event.summary).toBe(title);
    expect(event.description).toBe('Line 1\nLine 2, with a \\ backslash');
  });

  it('filters by type and by period', async () => {
    await addEvent(h, { title: 'Quiz', type: 'grade', period: 'CSA' });
    await addEvent(h, { title: 'Lab', type: 'check-in', period: 'CSA' });
    await addEvent(h, { title: 'Test', type: 'grade', period: 'CSP' });
    const summaries = async (query: string) => (await feed(query)).events.map((e) => e.summary);
    expect(await summaries('?type=grade')).toEqual(['Quiz', 'Test']);
    expect(await summaries('?period=CSA')).toEqual(['Quiz', 'Lab']);
    expect(await summaries('?type=grade&period=CSP')).toEqual(['Test']);
    expect(await summaries('?type=none')).toEqual([]);
  });

  it('answers 304 to a client that has the current feed, 200 once it changed', async () => {
    await addEvent(h, { title: 'Quiz' });
    const first = await h.get('calendar.ics');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await h.get('calendar.ics')).body).toBe(first.body);
    const cached = await h.request({
      method: 'GET',
      url: 'calendar.ics',
      headers: { 'if-none-match': etag },
    });
    expect(cached.statusCode).toBe(304);
    expect(cached.body).toBe('');
    await addEvent(h, { title: 'Lab' });
    const changed = await h.request({
      method: 'GET',
      url: 'calendar.ics',
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
  });

  it('is open to calendar apps, which send no token', async () => {
    expect((await h.request({ method: 'GET', url: 'calendar.ics', token: null })).statusCode).toBe(
      200,
    );
  });
});
