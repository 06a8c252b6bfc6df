import {
  MAX_OCCURRENCES,
  normalizeRule,
  occurrenceDates,
  RecurrenceError,
  toSeries,
} from './recurrence';

const weekly = (rrule: string, exdates: string[] = []) => ({ rrule, exdates });

describe('occurrenceDates', () => {
  it('expands a daily rule with a count', () => {
    expect(occurrenceDates('2025-03-03', weekly('FREQ=DAILY;COUNT=4'))).toEqual([
      '2025-03-03',
      '2025-03-04',
      '2025-03-05',
      '2025-03-06',
    ]);
  });

  it('expands a weekly rule on given days until a date, the until date included', () => {
    expect(occurrenceDates('2025-03-03', weekly('FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20250317'))).toEqual(
      ['2025-03-03', '2025-03-06', '2025-03-10', '2025-03-13', '2025-03-17'],
    );
  });

  it('leaves out the exception dates', () => {
    const rule = weekly('FREQ=WEEKLY;COUNT=4', ['2025-03-10']);
    expect(occurrenceDates('2025-03-03', rule)).toEqual(['2025-03-03', '2025-03-17', '2025-03-24']);
  });

  it('keeps the weekday across daylight-saving changes, whatever the server zone', () => {
    // US clocks change on 2025-03-09 and 2025-11-02, European ones on 03-30 and 10-26.
    const original = process.env.TZ;
    const rule = weekly('FREQ=WEEKLY;BYDAY=FR;UNTIL=20251114');
    try {
      const expansions = ['America/New_York', 'Europe/Paris', 'Pacific/Auckland', 'UTC'].map(
        (tz) => {
          process.env.TZ = tz;
          return occurrenceDates('2025-02-28', rule);
        },
      );
      for (const dates of expansions) expect(dates).toEqual(expansions[0]);
      const dates = expansions[0];
      expect(dates).toHaveLength(38);
      expect(dates.slice(0, 3)).toEqual(['2025-02-28', '2025-03-07', '2025-03-14']);
      expect(dates).toEqual(expect.arrayContaining(['2025-10-31', '2025-11-07', '2025-11-14']));
      expect(dates.every((d) => new Date(`${d}T12:00:00Z`).getUTCDay() === 5)).toBe(true);
    } finally {
      if (original === undefined) delete process.env.TZ;
      else process.env.TZ = original;
    }
  });

  it('answers only the dates inside a window, both ends included', () => {
    const rule = weekly('FREQ=DAILY;INTERVAL=2;COUNT=10');
    expect(occurrenceDates('2025-03-01', rule, '2025-03-05', '2025-03-09')).toEqual([
      '2025-03-05',
      '2025-03-07',
      '2025-03-09',
    ]);
  });
});

describe('normalizeRule', () => {
  it.each([
    ['freq=weekly;byday=mo,we;count=3', 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=3'],
    ['RRULE:COUNT=2;FREQ=DAILY', 'FREQ=DAILY;COUNT=2'],
    ['FREQ=WEEKLY;UNTIL=20250601;INTERVAL=02', 'FREQ=WEEKLY;INTERVAL=2;UNTIL=20250601'],
  ])('writes %s as %s', (given, stored) => {
    expect(normalizeRule(given, 'UTC')).toBe(stored);
  });

  it('dates a UTC UNTIL in the calendar time zone', () => {
    // 05:00 UTC on June 1st is still May 31st in Los Angeles.
    const rule = 'FREQ=DAILY;UNTIL=20250601T050000Z';
    expect(normalizeRule(rule, 'America/Los_Angeles')).toBe('FREQ=DAILY;UNTIL=20250531');
    expect(normalizeRule(rule, 'Europe/Paris')).toBe('FREQ=DAILY;UNTIL=20250601');
  });

  it.each([
    ['FREQ=MONTHLY;COUNT=2', 'FREQ must be DAILY or WEEKLY'],
    ['FREQ=WEEKLY', 'give exactly one of UNTIL or COUNT: a series must end'],
    ['FREQ=WEEKLY;COUNT=2;UNTIL=20250601', 'give exactly one of UNTIL or COUNT: a series must end'],
    ['FREQ=WEEKLY;BYDAY=XX;COUNT=2', 'BYDAY must list weekdays such as MO,WE,FR'],
    ['FREQ=WEEKLY;BYDAY=1MO;COUNT=2', 'BYDAY must list weekdays such as MO,WE,FR'],
    [
      'FREQ=DAILY;BYHOUR=9;COUNT=2',
      'BYHOUR is not supported (use FREQ, INTERVAL, BYDAY, COUNT, UNTIL)',
    ],
    ['FREQ=DAILY;COUNT=0', `COUNT must be a whole number from 1 to ${MAX_OCCURRENCES}`],
    ['FREQ=DAILY;COUNT=2;COUNT=3', 'COUNT is given twice'],
    ['FREQ=DAILY;UNTIL=20250230', 'UNTIL must be a date YYYYMMDD (or a UTC time YYYYMMDDTHHMMSSZ)'],
    ['FREQ=DAILY;;COUNT=2', '"" is not a NAME=value part'],
  ])('refuses %s: %s', (rule, message) => {
    expect(() => normalizeRule(rule, 'UTC')).toThrow(new RecurrenceError(message));
  });
});

describe('toSeries', () => {
  it('stores the rule, the sorted exceptions and the last occurrence left', () => {
    expect(
      toSeries(
        '2025-03-03',
        weekly('freq=weekly;count=3', ['2025-03-17', '2025-03-10', '2025-03-17']),
        'UTC',
      ),
    ).toEqual({
      rrule: 'FREQ=WEEKLY;COUNT=3',
      exdates: ['2025-03-10', '2025-03-17'],
      seriesEnd: '2025-03-03',
    });
  });

  it('refuses a start the rule does not include (RFC 5545 would count it, rrule would not)', () => {
    expect(() => toSeries('2025-03-04', weekly('FREQ=WEEKLY;BYDAY=MO;COUNT=2'), 'UTC')).toThrow(
      "the event's date 2025-03-04 must be a day the rule includes",
    );
  });

  it('refuses a series without occurrences, or with too many', () => {
    expect(() =>
      toSeries('2025-03-03', weekly('FREQ=DAILY;COUNT=1', ['2025-03-03']), 'UTC'),
    ).toThrow('the series has no occurrence left');
    expect(() => toSeries('2025-03-03', weekly('FREQ=DAILY;UNTIL=20250302'), 'UTC')).toThrow(
      'the series has no occurrence left',
    );
    expect(() => toSeries('2025-01-01', weekly('FREQ=DAILY;UNTIL=20300101'), 'UTC')).toThrow(
      `the series has more than ${MAX_OCCURRENCES} occurrences`,
    );
  });
});
