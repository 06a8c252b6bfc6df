import {
  dayFromParts,
  formatDay,
  mondayForAnchor,
  nearestTo,
  parseIsoDay,
  weekdayOf,
} from './calendar-date';

const day = (iso: string) => parseIsoDay(iso) as number;

describe('calendar dates', () => {
  it.each(['2025-02-30', '2025-13-01', '2025-00-10', '2025-2-3', '2023-02-29', 'tomorrow'])(
    'rejects %s as not a real YYYY-MM-DD date',
    (text) => {
      expect(parseIsoDay(text)).toBeNull();
    },
  );

  it('accepts 29 February in a leap year and formats it back unchanged', () => {
    expect(formatDay(day('2024-02-29'))).toBe('2024-02-29');
  });

  it('adds days across month, year and DST boundaries without shifting', () => {
    expect(formatDay(day('2025-03-08') + 2)).toBe('2025-03-10');
    expect(formatDay(day('2025-10-25') + 2)).toBe('2025-10-27');
    expect(formatDay(day('2025-12-31') + 1)).toBe('2026-01-01');
  });

  it.each([
    ['1970-01-01', 4],
    ['2025-03-02', 0],
    ['2025-03-03', 1],
    ['2025-03-08', 6],
    ['1969-12-28', 0],
  ])('knows %s falls on weekday %i (0 = Sunday)', (iso, weekday) => {
    expect(weekdayOf(day(iso))).toBe(weekday);
  });

  it.each([
    ['2025-03-03', '2025-03-03', 'a Monday is its own week'],
    ['2025-03-05', '2025-03-03', 'a Wednesday belongs to the week that began that Monday'],
    ['2025-03-07', '2025-03-03', 'a Friday belongs to the week that began that Monday'],
    ['2025-03-08', '2025-03-10', 'a Saturday means the week starting the following Monday'],
    ['2025-03-09', '2025-03-10', 'a Sunday means the week starting the following Monday'],
  ])('maps anchor %s to Monday %s: %s', (anchor, monday) => {
    expect(formatDay(mondayForAnchor(day(anchor)))).toBe(monday);
  });

  it('picks the later candidate when two are equally near', () => {
    expect(nearestTo(10, [8, 12, null])).toBe(12);
    expect(nearestTo(10, [null])).toBeNull();
  });

  it('rejects non-integer parts', () => {
    expect(dayFromParts(2025, 3, Number.NaN)).toBeNull();
  });
});
