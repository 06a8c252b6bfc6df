import { dueDigestDay, dueReminderDays } from './schedule';

describe('dueDigestDay', () => {
  it.each([
    ['2025-03-05T16:59:00Z', 'UTC', '17:00', null],
    ['2025-03-05T17:00:00Z', 'UTC', '17:00', '2025-03-06'],
    ['2025-03-05T23:59:00Z', 'UTC', '17:00', '2025-03-06'],
    ['2025-03-06T00:00:00Z', 'UTC', '00:00', '2025-03-07'],
    // 15:00 UTC is 07:00 in Los Angeles (PST) and already 00:00 of the 6th in Tokyo.
    ['2025-03-05T15:00:00Z', 'America/Los_Angeles', '08:00', null],
    ['2025-03-05T16:00:00Z', 'America/Los_Angeles', '08:00', '2025-03-06'],
    ['2025-03-05T15:00:00Z', 'Asia/Tokyo', '00:00', '2025-03-07'],
    // After the change to daylight time (9 March), 08:00 in Los Angeles is 15:00 UTC.
    ['2025-03-10T15:00:00Z', 'America/Los_Angeles', '08:00', '2025-03-11'],
  ])('at %s in %s with the digest at %s, is due for %s', (now, zone, time, day) => {
    expect(dueDigestDay(new Date(now), zone, time)).toBe(day);
  });
});

describe('dueReminderDays', () => {
  it.each([
    ['2025-03-05T15:00:00Z', 'UTC', 60, null],
    ['2025-03-05T23:00:00Z', 'UTC', 60, { start: '2025-03-06', end: '2025-03-06' }],
    ['2025-03-05T15:00:00Z', 'UTC', 2880, { start: '2025-03-06', end: '2025-03-07' }],
    ['2025-03-05T15:00:00Z', 'America/Los_Angeles', 600, null],
    [
      '2025-03-05T15:00:00Z',
      'America/Los_Angeles',
      1020,
      { start: '2025-03-06', end: '2025-03-06' },
    ],
  ])('at %s in %s, %i minutes ahead, covers %j', (now, zone, minutes, days) => {
    expect(dueReminderDays(new Date(now), zone, minutes)).toEqual(days);
  });
});
