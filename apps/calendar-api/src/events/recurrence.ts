import { RRule, RRuleSet } from 'rrule';
import { dateInZone } from '../domain';

/** A series never has more occurrences than this, so every read of it is bounded. */
export const MAX_OCCURRENCES = 1000;

/** How a recurring event repeats: an RFC 5545 RRULE value and the dates it skips (EXDATE). */
export interface Recurrence {
  rrule: string;
  exdates: string[];
}

/** A recurrence as given: its exceptions may be left out. */
export type GivenRecurrence = Omit<Recurrence, 'exdates'> & { exdates?: string[] };

/** A recurrence checked and written in its one stored form, with its last occurrence. */
export interface Series extends Recurrence {
  seriesEnd: string;
}

/** A rule the service refuses, with the reason a person can act on. */
export class RecurrenceError extends Error {}

const KEYS = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'COUNT', 'UNTIL', 'WKST']);
const WEEKDAY = /^(MO|TU|WE|TH|FR|SA|SU)$/;
const UNTIL = /^(\d{4})(\d{2})(\d{2})(T(\d{2})(\d{2})(\d{2})Z)?$/;

/** Midnight UTC of a calendar date: occurrences are whole days, computed as floating dates. */
const utcDate = (date: string) => new Date(`${date}T00:00:00.000Z`);
const dateOf = (instant: Date) => instant.toISOString().slice(0, 10);
const icsDate = (date: string) => date.replaceAll('-', '');

function parseParts(text: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of text.replace(/^RRULE:/i, '').split(';')) {
    const [key, value, extra] = part.split('=');
    const name = key?.toUpperCase();
    if (!name || value === undefined || value === '' || extra !== undefined)
      throw new RecurrenceError(`"${part}" is not a NAME=value part`);
    if (!KEYS.has(name))
      throw new RecurrenceError(
        `${name} is not supported (use FREQ, INTERVAL, BYDAY, COUNT, UNTIL)`,
      );
    if (parts.has(name)) throw new RecurrenceError(`${name} is given twice`);
    parts.set(name, value.toUpperCase());
  }
  return parts;
}

function integer(parts: Map<string, string>, key: string, max: number): string | null {
  const value = parts.get(key);
  if (value === undefined) return null;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new RecurrenceError(`${key} must be a whole number from 1 to ${max}`);
  return String(Number(value));
}

/** UNTIL as a calendar date; a UTC time (as calendar apps write it) counts on its day in `zone`. */
function untilDate(value: string, zone: string): string {
  const match = UNTIL.exec(value);
  const date = match && `${match[1]}-${match[2]}-${match[3]}`;
  const instant =
    date &&
    new Date(match[4] ? `${date}T${match[5]}:${match[6]}:${match[7]}Z` : `${date}T00:00:00Z`);
  if (
    !date ||
    !instant ||
    Number.isNaN(instant.getTime()) ||
    (!match[4] && dateOf(instant) !== date)
  )
    throw new RecurrenceError('UNTIL must be a date YYYYMMDD (or a UTC time YYYYMMDDTHHMMSSZ)');
  return match[4] ? dateInZone(instant, zone) : date;
}

/**
 * The rule in its stored form (FREQ first, UNTIL as a date) or a RecurrenceError: daily or weekly,
 * on given weekdays, bounded by UNTIL or COUNT. `zone` (CALENDAR_TIMEZONE) dates a timed UNTIL.
 */
export function normalizeRule(text: string, zone: string): string {
  const parts = parseParts(text.trim());
  const freq = parts.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY')
    throw new RecurrenceError('FREQ must be DAILY or WEEKLY');
  const rule = [`FREQ=${freq}`];
  const interval = integer(parts, 'INTERVAL', 366);
  if (interval !== null) rule.push(`INTERVAL=${interval}`);
  const byday = parts.get('BYDAY');
  if (byday !== undefined) {
    const days = byday.split(',');
    if (!days.every((day) => WEEKDAY.test(day)))
      throw new RecurrenceError('BYDAY must list weekdays such as MO,WE,FR');
    rule.push(`BYDAY=${[...new Set(days)].join(',')}`);
  }
  const wkst = parts.get('WKST');
  if (wkst !== undefined) {
    if (!WEEKDAY.test(wkst)) throw new RecurrenceError('WKST must be a weekday such as MO');
    rule.push(`WKST=${wkst}`);
  }
  const count = integer(parts, 'COUNT', MAX_OCCURRENCES);
  const until = parts.get('UNTIL');
  if ((count === null) === (until === undefined))
    throw new RecurrenceError('give exactly one of UNTIL or COUNT: a series must end');
  rule.push(
    count !== null ? `COUNT=${count}` : `UNTIL=${icsDate(untilDate(until as string, zone))}`,
  );
  return rule.join(';');
}

/** The occurrences of a stored rule from `start` (DTSTART), exceptions left out, via rrule. */
function ruleSet(start: string, recurrence: Recurrence): RRuleSet {
  const set = new RRuleSet();
  set.rrule(new RRule({ ...RRule.parseString(recurrence.rrule), dtstart: utcDate(start) }));
  for (const date of recurrence.exdates) set.exdate(utcDate(date));
  return set;
}

/**
 * Checks a recurrence for an event starting on `start` and answers it as stored, with its last
 * occurrence; a RecurrenceError when the rule is not supported, runs past MAX_OCCURRENCES or
 * leaves no occurrence at all.
 */
export function toSeries(start: string, recurrence: GivenRecurrence, zone: string): Series {
  const rrule = normalizeRule(recurrence.rrule, zone);
  const exdates = [...new Set(recurrence.exdates ?? [])].sort();
  const rule = new RRule({ ...RRule.parseString(rrule), dtstart: utcDate(start) });
  const all = rule.all((_, index) => index <= MAX_OCCURRENCES);
  // RFC 5545 makes DTSTART the first instance whether or not the rule names its day; rrule
  // does not: a start the rule skips would make the feed and the API disagree.
  if (all.length > 0 && dateOf(all[0]) !== start)
    throw new RecurrenceError(`the event's date ${start} must be a day the rule includes`);
  if (all.length > MAX_OCCURRENCES)
    throw new RecurrenceError(`the series has more than ${MAX_OCCURRENCES} occurrences`);
  const kept = ruleSet(start, { rrule, exdates }).all();
  if (kept.length === 0) throw new RecurrenceError('the series has no occurrence left');
  return { rrule, exdates, seriesEnd: dateOf(kept[kept.length - 1]) };
}

// Every series is bounded (MAX_OCCURRENCES), so its dates are computed by rrule once and kept:
// rrule walks from DTSTART on every call, ~0.4 ms a series for a week of a year-long rule, which a
// range read would pay for each series it meets. Least recently used first out, by date count.
const MAX_CACHED_DATES = 200_000;
const cachedDates = new Map<string, string[]>();
let cachedCount = 0;

function allDates(start: string, recurrence: Recurrence): string[] {
  const key = `${start}|${recurrence.rrule}|${recurrence.exdates.join(',')}`;
  let dates = cachedDates.get(key);
  if (dates !== undefined) {
    cachedDates.delete(key);
  } else {
    dates = ruleSet(start, recurrence).all().map(dateOf);
    cachedCount += dates.length;
  }
  cachedDates.set(key, dates);
  for (const [oldest, evicted] of cachedDates) {
    if (cachedCount <= MAX_CACHED_DATES || oldest === key) break;
    cachedDates.delete(oldest);
    cachedCount -= evicted.length;
  }
  return dates;
}

/** The first index of sorted `dates` whose date is not before `date`. */
function firstFrom(dates: string[], date: string): number {
  let low = 0;
  let high = dates.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (dates[middle] < date) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The dates of a series from `start` that fall from `from` to `to` (inclusive, YYYY-MM-DD). */
export function occurrenceDates(
  start: string,
  recurrence: Recurrence,
  from?: string,
  to?: string,
): string[] {
  const dates = allDates(start, recurrence);
  const first = from === undefined ? 0 : firstFrom(dates, from);
  const end = to === undefined ? dates.length : firstFrom(dates, `${to}~`);
  return dates.slice(first, end);
}
