import type { EventRow } from '../events';
import { buildCalendarFeed, eventUid, feedEtag, ifNoneMatchHits } from './calendar-feed';

const event = (overrides: Partial<EventRow> = {}): EventRow => ({
  id: 7,
  date: '2025-03-07',
  title: 'Unit 5 quiz',
  description: '',
  type: 'grade',
  period: 'CSA',
  sourceChannel: null,
  sourceMessageId: null,
  fromChat: false,
  sequence: 0,
  rrule: null,
  exdates: [],
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-02T11:30:00.000Z',
  ...overrides,
});
const options = { name: 'Class calendar', uidDomain: 'calendar-api' };

describe('buildCalendarFeed', () => {
  it('writes an all-day event with its UID, dates, category and change times', () => {
    const ics = buildCalendarFeed([event()], options);
    expect(ics.split('\r\n')).toEqual(
      expect.arrayContaining([
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'METHOD:PUBLISH',
        'UID:event-7@calendar-api',
        'DTSTAMP:20250302T113000Z',
        'DTSTART;VALUE=DATE:20250307',
        'DTEND;VALUE=DATE:20250308',
        'SUMMARY:Unit 5 quiz',
        'CATEGORIES:grade',
        'CREATED:20250301T100000Z',
        'LAST-MODIFIED:20250302T113000Z',
        'END:VCALENDAR',
      ]),
    );
    expect(ics).not.toContain('DESCRIPTION');
  });

  it('writes the same dates whatever the server time zone', () => {
    const original = process.env.TZ;
    try {
      const feeds = ['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC'].map((tz) => {
        process.env.TZ = tz;
        return buildCalendarFeed([event()], options);
      });
      expect(new Set(feeds).size).toBe(1);
    } finally {
      if (original === undefined) delete process.env.TZ;
      else process.env.TZ = original;
    }
  });

  it('gives the same bytes for the same events', () => {
    expect(buildCalendarFeed([event()], options)).toBe(buildCalendarFeed([event()], options));
  });
});

describe('eventUid', () => {
  it('names the event by id and domain', () => {
    expect(eventUid(42, 'calendar.example.org')).toBe('event-42@calendar.example.org');
  });
});

describe('ifNoneMatchHits', () => {
  const etag = feedEtag('BEGIN:VCALENDAR');

  it.each([
    [etag, true],
    [`W/${etag}`, true],
    [`"other", ${etag}`, true],
    ['*', true],
    ['"other"', false],
    [undefined, false],
  ])('reads %j as %s', (header, hit) => {
    expect(ifNoneMatchHits(header, etag)).toBe(hit);
  });
});
