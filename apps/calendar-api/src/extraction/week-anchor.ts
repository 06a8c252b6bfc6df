import { type Day, dayFromParts, nearestTo, partsOfDay } from '../domain';

/** invalid: no date could be read after "Week of"; impossible: a date that does not exist. */
export type WeekAnchor =
  { kind: 'anchor'; date: Day } | { kind: 'invalid' | 'impossible'; reason: string };

// Slack formatting (*bold*, _italic_, ~strike~) and emoji codes (:spiral_calendar_pad:) may lead.
const WEEK_OF = /^(?:[*_~\s]|:[\w+-]+:)*week\s+of\s+/i;
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/;
const NUMERIC = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?![\d/])/;
const NTH = /^(?:the\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th))(?![\da-z])/i;
const MONTH_NAME =
  /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?![\da-z])/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Reads a "Week of …" line. Returns null when the line is not one, an anchor date when it is,
 * and a reason when it starts with "Week of" but names no real date.
 */
export function parseWeekAnchor(line: string, reference: Day): WeekAnchor | null {
  const prefix = WEEK_OF.exec(line);
  if (!prefix) return null;
  const rest = line.slice(prefix[0].length);
  const date = readAnchorDate(rest, reference);
  if (date === undefined) {
    return { kind: 'invalid', reason: 'unrecognised date after "Week of"' };
  }
  if (date === null) {
    return { kind: 'impossible', reason: '"Week of" names a date that does not exist' };
  }
  return { kind: 'anchor', date };
}

/** undefined: no date form matched; null: a date form matched but the date is not real. */
function readAnchorDate(text: string, reference: Day): Day | null | undefined {
  let match = ISO.exec(text);
  if (match) return dayFromParts(Number(match[1]), Number(match[2]), Number(match[3]));

  match = NUMERIC.exec(text) ?? monthNameMatch(text);
  if (match) {
    const month = Number(match[1]);
    const day = Number(match[2]);
    if (match[3] === undefined) return nearestYear(month, day, reference);
    const year = match[3].length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
    return dayFromParts(year, month, day);
  }

  match = NTH.exec(text);
  if (match) return nearestMonth(Number(match[1] ?? match[2]), reference);
  return undefined;
}

/** Normalises "March 3rd, 2025" to the same groups as "3/3/2025": month, day, year. */
function monthNameMatch(text: string): RegExpExecArray | null {
  const match = MONTH_NAME.exec(text);
  if (!match) return null;
  match[1] = String(MONTHS.indexOf(match[1].toLowerCase()) + 1);
  return match;
}

/** M/D without a year: the year that puts the date nearest the reference ("1/5" on 12/30 → next year). */
export function nearestYear(month: number, day: number, reference: Day): Day | null {
  const { year } = partsOfDay(reference);
  return nearestTo(
    reference,
    [year - 1, year, year + 1].map((y) => dayFromParts(y, month, day)),
  );
}

/** "the Nth": the month nearest the reference that has that day (the 31st skips short months). */
export function nearestMonth(day: number, reference: Day): Day | null {
  const { year, month } = partsOfDay(reference);
  const candidates: (Day | null)[] = [];
  for (let offset = -2; offset <= 2; offset += 1) {
    const index = year * 12 + (month - 1) + offset;
    candidates.push(dayFromParts(Math.floor(index / 12), (index % 12) + 1, day));
  }
  return nearestTo(reference, candidates);
}
