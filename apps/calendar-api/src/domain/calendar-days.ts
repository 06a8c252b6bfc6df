import { formatDay, parseIsoDay } from './calendar-date';

/** True for a time zone name Intl knows (IANA names such as `America/Los_Angeles`, and `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

// Building a formatter costs far more than using one, and every message read needs "today".
// Bounded: `tz` comes from requests, and zone names are case-insensitive.
const MAX_CACHED_ZONES = 64;

/** Reads the parts of an instant in a zone, with one cached formatter per zone. */
function zonedParts(options: Intl.DateTimeFormatOptions) {
  const formats = new Map<string, Intl.DateTimeFormat>();
  return (instant: Date, timeZone: string) => {
    let format = formats.get(timeZone);
    if (format === undefined) {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
      if (formats.size < MAX_CACHED_ZONES) formats.set(timeZone, format);
    }
    const parts = format.formatToParts(instant);
    return (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  };
}

const dayParts = zonedParts({ year: 'numeric', month: '2-digit', day: '2-digit' });
const timeParts = zonedParts({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** The calendar date (`YYYY-MM-DD`) that `instant` falls on in `timeZone`. */
export function dateInZone(instant: Date, timeZone: string): string {
  const part = dayParts(instant, timeZone);
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The wall-clock time (`HH:MM`, 00:00–23:59) of `instant` in `timeZone`. */
export function timeInZone(instant: Date, timeZone: string): string {
  const part = timeParts(instant, timeZone);
  return `${part('hour')}:${part('minute')}`;
}

/** `date` moved by whole days; throws RangeError when `date` is not a real `YYYY-MM-DD`. */
export function addDays(date: string, days: number): string {
  const day = parseIsoDay(date);
  if (day === null) throw new RangeError(`Not a real YYYY-MM-DD date: "${date}"`);
  return formatDay(day + days);
}

/** A SQL `date` value as Prisma reads and writes it: midnight UTC of that day. */
export function toDbDate(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export function fromDbDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
