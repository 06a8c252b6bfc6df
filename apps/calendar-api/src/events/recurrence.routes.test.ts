import ICAL from 'ical.js';
import { addEvent, titles } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import type { EventResponse } from './events.schemas';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ CALENDAR_TIMEZONE: 'America/New_York' });
});
afterAll(() => h.close());
beforeEach(() => h.reset());

/** A lab every Monday and Wednesday in March 2025 (US clocks change on the 9th), not on the 12th. */
const LAB = {
  date: '2025-03-03',
  title: 'Lab',
  type: 'check-in',
  recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20250331', exdates: ['2025-03-12'] },
};
const LAB_DATES = [
  '2025-03-03',
  '2025-03-05',
  '2025-03-10',
  '2025-03-17',
  '2025-03-19',
  '2025-03-24',
  '2025-03-26',
  '2025-03-31',
];

const dates = (events: EventResponse[]) => events.map((e) => e.date);

/** The dates of the feed's events, recurrences expanded by ical.js. */
async function feedDates(): Promise<string[]> {
  const res = await h.get('calendar.ics');
  expect(res.statusCode).toBe(200);
  const calendar = new ICAL.Component(ICAL.parse(res.body));
  const found: string[] = [];
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const iterator = new ICAL.Event(vevent).iterator();
    for (let next = iterator.next(); next; next = iterator.next()) found.push(next.toString());
  }
  return found.sort();
}

describe('recurring events', () => {
  it('are stored with their rule and answered with it', async () => {
    const lab = await addEvent(h, LAB);
    expect(lab).toMatchObject({ date: '2025-03-03', recurrence: LAB.recurrence });
    expect((await h.get(`event/${lab.id}`)).json()).toMatchObject({ recurrence: LAB.recurrence });
    const single = await addEvent(h, { title: 'Quiz' });
    expect(single.recurrence).toBeNull();
  });

  it('show every occurrence in a range read, the exception left out, among single events', async () => {
    const lab = await addEvent(h, LAB);
    await addEvent(h, { date: '2025-03-12', title: 'Quiz' });
    const res = await h.get('events/range?start=2025-03-01&end=2025-04-30');
    expect(titles(res)).toEqual([
      ...LAB_DATES.slice(0, 3).map((d) => `${d} Lab`),
      '2025-03-12 Quiz',
      ...LAB_DATES.slice(3).map((d) => `${d} Lab`),
    ]);
    const occurrences = (res.json() as EventResponse[]).filter((e) => e.title === 'Lab');
    expect(new Set(occurrences.map((e) => e.id))).toEqual(new Set([lab.id]));
    expect(dates((await h.get('events/range?start=2025-03-16&end=2025-03-20')).json())).toEqual([
      '2025-03-17',
      '2025-03-19',
    ]);
  });

  it('show on their dates, by type, and tomorrow', async () => {
    await addEvent(h, LAB);
    expect(titles(await h.get('events/2025-03-10'))).toEqual(['2025-03-10 Lab']);
    expect((await h.get('events/2025-03-12')).json()).toEqual([]);
    expect(dates((await h.get('events/type/check-in')).json())).toEqual(LAB_DATES);
    h.setNow(new Date('2025-03-18T15:00:00Z'));
    expect(titles(await h.get('events/next-day'))).toEqual(['2025-03-19 Lab']);
  });

  it('page through GET /events occurrence by occurrence', async () => {
    await addEvent(h, LAB);
    await addEvent(h, { date: '2025-03-17', title: 'Quiz' });
    const seen: string[] = [];
    let url: string | null = `/api/calendar/events?start=2025-03-01&limit=3`;
    while (url !== null) {
      const res = await h.get(url);
      expect(res.statusCode).toBe(200);
      seen.push(...titles(res));
      const link = res.headers.link as string | undefined;
      url = link ? (/^<([^>]+)>/.exec(link)?.[1] ?? null) : null;
    }
    // The lab was created first: on the 17th its occurrence comes before the quiz.
    const expected = LAB_DATES.map((d) => `${d} Lab`);
    expected.splice(4, 0, '2025-03-17 Quiz');
    expect(seen).toEqual(expected);
  });

  it('are one VEVENT in the feed with RRULE and EXDATE, which ical.js expands to the same dates', async () => {
    await addEvent(h, LAB);
    await addEvent(h, { date: '2025-03-12', title: 'Quiz' });
    const body = (await h.get('calendar.ics')).body;
    expect(body).toContain('\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20250331\r\n');
    expect(body).toContain('\r\nEXDATE;VALUE=DATE:20250312\r\n');
    expect(body.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    const api = dates((await h.get('events/range?start=2025-01-01&end=2025-12-31')).json());
    expect(await feedDates()).toEqual(api);
  });

  it('move, change rule and stop repeating through PATCH', async () => {
    const lab = await addEvent(h, LAB);
    const moved = await h.request({
      method: 'PATCH',
      url: `event/${lab.id}`,
      payload: { date: '2025-03-05' },
    });
    expect(moved.statusCode).toBe(200);
    expect(dates((await h.get('events/type/check-in')).json())).toEqual(LAB_DATES.slice(1));
    const daily = await h.request({
      method: 'PATCH',
      url: `event/${lab.id}`,
      payload: { recurrence: { rrule: 'FREQ=DAILY;COUNT=3' } },
    });
    expect(daily.json()).toMatchObject({
      recurrence: { rrule: 'FREQ=DAILY;COUNT=3', exdates: [] },
    });
    expect(dates((await h.get('events/type/check-in')).json())).toEqual([
      '2025-03-05',
      '2025-03-06',
      '2025-03-07',
    ]);
    const single = await h.request({
      method: 'PATCH',
      url: `event/${lab.id}`,
      payload: { recurrence: null },
    });
    expect(single.json()).toMatchObject({ date: '2025-03-05', recurrence: null });
    expect(dates((await h.get('events/type/check-in')).json())).toEqual(['2025-03-05']);
  });

  it.each([
    [{ rrule: 'FREQ=YEARLY;COUNT=2' }, 'FREQ must be DAILY or WEEKLY'],
    [{ rrule: 'FREQ=WEEKLY' }, 'give exactly one of UNTIL or COUNT: a series must end'],
    [
      { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=2' },
      "the event's date 2025-03-03 must be a day the rule includes",
    ],
  ])('answers 400 naming the problem of %j', async (recurrence, message) => {
    const res = await h.post('add_event', { date: '2025-03-03', title: 'Bad', recurrence });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'recurrence.rrule', message }],
    });
  });

  it('answers 400 for a rule or exception that is not even well-formed', async () => {
    for (const recurrence of [
      { rrule: 'FREQ=DAILY\nCOUNT=2' },
      { rrule: 'FREQ=DAILY;COUNT=2', exdates: ['2025-02-30'] },
      { exdates: [] },
    ]) {
      const res = await h.post('add_event', { date: '2025-03-03', title: 'Bad', recurrence });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});
