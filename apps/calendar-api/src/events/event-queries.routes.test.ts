import type { LightMyRequestResponse } from 'fastify';
import { addEvent, titles } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import type { EventResponse } from './events.schemas';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

function nextLink(res: LightMyRequestResponse): string | null {
  const link = res.headers.link;
  if (link === undefined) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(String(link));
  if (!match) throw new Error(`Not a rel="next" link: ${link}`);
  return match[1];
}

describe('GET /events/{date}', () => {
  it('answers the events of that date only, in creation order', async () => {
    await addEvent(h, { date: '2025-03-04', title: 'B' });
    await addEvent(h, { date: '2025-03-03', title: 'A' });
    await addEvent(h, { date: '2025-03-04', title: 'C' });
    expect(titles(await h.get('events/2025-03-04'))).toEqual(['2025-03-04 B', '2025-03-04 C']);
    expect((await h.get('events/2025-03-09')).json()).toEqual([]);
  });

  it.each(['2025-02-30', '03/03/2025', '2025-3-3', 'tomorrow'])(
    'answers 400 VALIDATION_FAILED for %j',
    async (date) => {
      const res = await h.get(`events/${encodeURIComponent(date)}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'date' }] });
    },
  );

  it('accepts 29 February in a leap year only', async () => {
    expect((await h.get('events/2024-02-29')).statusCode).toBe(200);
    expect((await h.get('events/2025-02-29')).statusCode).toBe(400);
  });
});

describe('GET /events/range', () => {
  it('answers the events from start to end, both inclusive, by date', async () => {
    for (const date of ['2025-03-02', '2025-03-07', '2025-03-03', '2025-03-08'])
      await addEvent(h, { date, title: date });
    expect(titles(await h.get('events/range?start=2025-03-03&end=2025-03-07'))).toEqual([
      '2025-03-03 2025-03-03',
      '2025-03-07 2025-03-07',
    ]);
  });

  it('answers 400 when start is after end', async () => {
    const res = await h.get('events/range?start=2025-03-08&end=2025-03-07');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'start', message: 'must not be after end' }],
    });
  });

  it('answers 400 when a bound is missing or not a real date', async () => {
    expect((await h.get('events/range?start=2025-03-03')).statusCode).toBe(400);
    expect((await h.get('events/range?start=2025-02-30&end=2025-03-07')).statusCode).toBe(400);
  });
});

describe('GET /events/type/{type}', () => {
  it('answers the events of that type only', async () => {
    await addEvent(h, { title: 'Quiz', type: 'grade' });
    await addEvent(h, { title: 'Intro' });
    await addEvent(h, { title: 'Exit ticket', type: 'check-in' });
    expect((await h.get('events/type/grade')).json().map((e: EventResponse) => e.title)).toEqual([
      'Quiz',
    ]);
    expect((await h.get('events/type/field-trip')).json()).toEqual([]);
  });

  it('answers 400 for a type that is not a slug', async () => {
    expect((await h.get('events/type/Not%20A%20Slug')).statusCode).toBe(400);
  });
});

describe('GET /events/next-day', () => {
  beforeEach(async () => {
    for (const date of ['2025-03-31', '2025-04-01', '2025-04-02'])
      await addEvent(h, { date, title: date });
  });
  const dates = async (url: string) => (await h.get(url)).json().map((e: EventResponse) => e.date);

  it('answers tomorrow across a month end, in the zone asked for', async () => {
    h.setNow(new Date('2025-03-31T23:30:00Z'));
    expect(await dates('events/next-day')).toEqual(['2025-04-01']);
    expect(await dates('events/next-day?tz=America/Los_Angeles')).toEqual(['2025-04-01']);
    expect(await dates('events/next-day?tz=Asia/Tokyo')).toEqual(['2025-04-02']);
  });

  it('uses CALENDAR_TIMEZONE when no tz is given', async () => {
    const tokyo = await createHarness({ CALENDAR_TIMEZONE: 'Asia/Tokyo' });
    try {
      await addEvent(tokyo, { date: '2025-04-02', title: 'Tokyo tomorrow' });
      tokyo.setNow(new Date('2025-03-31T23:30:00Z'));
      expect(titles(await tokyo.get('events/next-day'))).toEqual(['2025-04-02 Tokyo tomorrow']);
    } finally {
      await tokyo.close();
    }
  });

  it('answers 400 for a zone that does not exist', async () => {
    const res = await h.get('events/next-day?tz=Mars/Olympus_Mons');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'tz' }] });
  });
});

describe('GET /events', () => {
  it('filters by type, period and dates together, ordered by date then id', async () => {
    await addEvent(h, { date: '2025-03-05', title: 'late', type: 'grade', period: 'CSA' });
    await addEvent(h, { date: '2025-03-03', title: 'early', type: 'grade', period: 'CSA' });
    await addEvent(h, { date: '2025-03-04', title: 'other period', type: 'grade', period: 'CSP' });
    await addEvent(h, { date: '2025-03-04', title: 'other type', period: 'CSA' });
    await addEvent(h, { date: '2025-03-10', title: 'after end', type: 'grade', period: 'CSA' });
    const res = await h.get('events?type=grade&period=CSA&start=2025-03-01&end=2025-03-09');
    expect(titles(res)).toEqual(['2025-03-03 early', '2025-03-05 late']);
    expect(res.headers.link).toBeUndefined();
  });

  it('walks every event exactly once through the Link headers, keeping the filters', async () => {
    const dates = [
      '2025-03-05',
      '2025-03-03',
      '2025-03-04',
      '2025-03-03',
      '2025-03-05',
      '2025-03-04',
      '2025-03-03',
    ];
    for (const date of dates) await addEvent(h, { date, type: 'grade' });
    await addEvent(h, { date: '2025-03-04', type: 'general' });
    const expected = await h.db.calendarEvent.findMany({
      where: { type: 'grade' },
      orderBy: [{ date: 'asc' }, { id: 'asc' }],
    });

    const seen: number[] = [];
    let url: string | null = '/api/calendar/events?type=grade&limit=3';
    let pages = 0;
    while (url) {
      const res = await h.get(url);
      expect(res.statusCode).toBe(200);
      const page = res.json() as EventResponse[];
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((e) => e.id));
      url = nextLink(res);
      pages += 1;
    }
    expect(seen).toEqual(expected.map((e) => e.id));
    expect(pages).toBe(3);
  });

  it('sends no Link header when the last page is exactly full', async () => {
    for (let i = 0; i < 2; i++) await addEvent(h);
    const res = await h.get('events?limit=2');
    expect(res.json()).toHaveLength(2);
    expect(res.headers.link).toBeUndefined();
  });

  it('answers 400 for start after end, a bad limit, or an after_id that matches no event', async () => {
    expect((await h.get('events?start=2025-03-09&end=2025-03-01')).statusCode).toBe(400);
    expect((await h.get('events?limit=0')).statusCode).toBe(400);
    expect((await h.get('events?start=2025-13-01')).statusCode).toBe(400);
    const res = await h.get('events?after_id=12345');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'after_id', message: expect.any(String) }]);
  });
});
