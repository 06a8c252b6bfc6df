import { addDays, dateInZone, fromDbDate, isTimeZone, toDbDate } from './calendar-days';

describe('isTimeZone', () => {
  it.each(['UTC', 'America/Los_Angeles', 'Asia/Tokyo', 'Europe/Berlin'])('accepts %s', (zone) => {
    expect(isTimeZone(zone)).toBe(true);
  });

  it.each(['', 'Mars/Olympus_Mons', 'America/Nowhere', 'UTC+25'])('rejects %j', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
  });
});

describe('dateInZone', () => {
  const instant = new Date('2025-03-31T23:30:00Z');

  it.each([
    ['UTC', '2025-03-31'],
    ['America/Los_Angeles', '2025-03-31'],
    ['Asia/Tokyo', '2025-04-01'],
    ['Pacific/Kiritimati', '2025-04-01'],
    ['Pacific/Pago_Pago', '2025-03-31'],
  ])('gives the local date in %s', (zone, expected) => {
    expect(dateInZone(instant, zone)).toBe(expected);
  });

  it('reads the local date across a daylight-saving change', () => {
    // 2025-03-09 02:00 in Los Angeles jumps to 03:00; 09:59Z is 01:59 PST, 10:00Z is 03:00 PDT.
    expect(dateInZone(new Date('2025-03-09T07:59:00Z'), 'America/Los_Angeles')).toBe('2025-03-08');
    expect(dateInZone(new Date('2025-03-09T10:00:00Z'), 'America/Los_Angeles')).toBe('2025-03-09');
  });
});

describe('addDays', () => {
  it.each([
    ['2025-03-31', 1, '2025-04-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2025-02-28', 1, '2025-03-01'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2025-01-01', -1, '2024-12-31'],
  ])('moves %s by %i day(s) to %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('refuses a date that does not exist', () => {
    expect(() => addDays('2025-02-30', 1)).toThrow(RangeError);
  });
});

describe('database dates', () => {
  it('round-trips a calendar date through the Date Prisma uses', () => {
    expect(toDbDate('2025-03-03').toISOString()).toBe('2025-03-03T00:00:00.000Z');
    expect(fromDbDate(toDbDate('2024-02-29'))).toBe('2024-02-29');
  });
});
