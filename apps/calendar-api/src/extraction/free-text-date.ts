import * as chrono from 'chrono-node';
import { type Day, dayFromParts, noonUtc } from '../domain';

export type FreeTextDate =
  { kind: 'dated'; date: Day; title: string } | { kind: 'invalid'; reason: string };

// An explicit date needs a digit, a weekday or a month name; lines without one skip chrono,
// which costs far more than the rest of the extraction.
const DATE_HINT =
  /\d|\b(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
// chrono's English parsers without the casual ones ("tomorrow", "tonight", "next week"): those
// are never explicit dates, and leaving them out makes each parse about twice as fast.
const EXPLICIT_DATE_PARSER = new chrono.Chrono(chrono.en.configuration.createConfiguration(false));
const RELATIVE_TAG = /^(?:casualReference\/|result\/relativeDate)/;
const WEEKDAY_MODIFIER = /\b(?:next|last|past|previous|this|coming)\b/i;
// The trailing run only from its first character (the lookbehind): tried from every character of
// a long run of junk in mid-line, it took seconds on a message-sized line.
const EDGE_JUNK = /^[\s,:;.!?\-–—]+|(?<![\s,:;.!?\-–—])[\s,:;.!?\-–—]+$/g;
const SLACK_WRAPPED = /^([*_~])\s*((?:(?!\1).)*?)\s*\1$/;
// "on March 14": chrono leaves the preposition out of the date phrase, the title should too.
const PREPOSITION_BEFORE_DATE = /(?:^|\s)(?:on|at)\s*$/i;

/**
 * Finds the first explicit date in a line (a calendar date or a weekday, not "tomorrow" or
 * "at 3pm"), read relative to the week's Monday, and titles the event with the rest of the line.
 */
export function parseFreeTextDate(line: string, weekStart: Day): FreeTextDate {
  const found = DATE_HINT.test(line) ? findExplicitDate(line, weekStart) : null;
  if (!found) return { kind: 'invalid', reason: 'not a day line, a description or a dated line' };
  const title = titleWithout(line, found.index, found.text.length);
  if (title === '') return { kind: 'invalid', reason: 'a date with no title' };
  return { kind: 'dated', date: found.date, title };
}

function findExplicitDate(
  line: string,
  weekStart: Day,
): { date: Day; index: number; text: string } | null {
  const results = EXPLICIT_DATE_PARSER.parse(line, { instant: noonUtc(weekStart), timezone: 0 });
  for (const result of results) {
    const date = explicitDate(result, weekStart);
    if (date !== null) return { date, index: result.index, text: result.text };
  }
  return null;
}

function explicitDate(result: chrono.ParsedResult, weekStart: Day): Day | null {
  const { start } = result;
  const weekday = start.get('weekday');
  // A bare weekday means that day of the posted week; chrono would pick the nearest one instead.
  if (start.isCertain('weekday') && !start.isCertain('day') && weekday !== null) {
    if (!WEEKDAY_MODIFIER.test(result.text)) return weekStart + ((weekday + 6) % 7);
  } else {
    if (!start.isCertain('day') || !start.isCertain('month')) return null;
    for (const tag of start.tags()) if (RELATIVE_TAG.test(tag)) return null;
  }
  return dayFromParts(start.get('year') ?? NaN, start.get('month') ?? NaN, start.get('day') ?? NaN);
}

function titleWithout(line: string, index: number, length: number): string {
  const before = line.slice(0, index).replace(PREPOSITION_BEFORE_DATE, '');
  return `${before} ${line.slice(index + length)}`
    .replace(/\[\s*\]|\(\s*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,:;.!?])/g, '$1')
    .replace(EDGE_JUNK, '')
    .replace(SLACK_WRAPPED, '$2')
    .replace(EDGE_JUNK, '');
}

/** `text` without spaces and punctuation at either end. */
export const withoutEdgeJunk = (text: string): string => text.replace(EDGE_JUNK, '');
