import { addDays, dateInZone, timeInZone } from './calendar-days';

/**
 * The day whose digest is due at `now`: tomorrow, once the local time has reached `digestTime`
 * (`HH:MM` in `timeZone`); null before then. A process that was down at that time sends it when
 * it is back, the same day.
 */
export function dueDigestDay(now: Date, timeZone: string, digestTime: string): string | null {
  if (timeInZone(now, timeZone) < digestTime) return null;
  return addDays(dateInZone(now, timeZone), 1);
}

/**
 * The days whose events' reminders are due at `now`, `minutesBefore` ahead of their start. Events
 * are all-day: one starts at the first moment of its date in `timeZone`, so its reminder is due
 * once the date `minutesBefore` from now has reached it. Events that have started (today's) are
 * past reminding. Null when no day is due.
 */
export function dueReminderDays(
  now: Date,
  timeZone: string,
  minutesBefore: number,
): { start: string; end: string } | null {
  const today = dateInZone(now, timeZone);
  const end = dateInZone(new Date(now.getTime() + minutesBefore * 60_000), timeZone);
  return end > today ? { start: addDays(today, 1), end } : null;
}
