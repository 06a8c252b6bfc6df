import type { Day } from '../domain';
import { parseDayLine } from './day-line';
import type { EventType } from './event-type';
import { parseFreeTextDate } from './free-text-date';

export const MAX_TITLE_LENGTH = 200;

export type EventLine =
  | { kind: 'events'; dates: Day[]; title: string; type: EventType }
  /** `startsGroup`: the line was meant as an event, so bullets after it must not describe older events. */
  | { kind: 'ignored'; reason: string; startsGroup: boolean };

/** A day line, else a line naming an explicit date, read against the week's Monday. */
export function readEventLine(line: string, week: Day): EventLine {
  const dayLine = parseDayLine(line);
  if (dayLine?.kind === 'invalid') {
    return { kind: 'ignored', reason: dayLine.reason, startsGroup: true };
  }
  if (dayLine) {
    const dates = dayLine.offsets.map((offset) => week + offset);
    return withCheckedTitle({ kind: 'events', dates, title: dayLine.title, type: dayLine.type });
  }
  const dated = parseFreeTextDate(line, week);
  if (dated.kind === 'invalid') {
    const reason = line.startsWith('[')
      ? 'no day name in the brackets and no date in the line'
      : dated.reason;
    return { kind: 'ignored', reason, startsGroup: false };
  }
  return withCheckedTitle({
    kind: 'events',
    dates: [dated.date],
    title: dated.title,
    type: 'general',
  });
}

function withCheckedTitle(line: Extract<EventLine, { kind: 'events' }>): EventLine {
  if (line.title === '') return { kind: 'ignored', reason: 'no title', startsGroup: true };
  // Titles are stored as up to 200 characters, counted as code points like Postgres does.
  if (line.title.length > MAX_TITLE_LENGTH && [...line.title].length > MAX_TITLE_LENGTH) {
    const reason = `title longer than ${MAX_TITLE_LENGTH} characters`;
    return { kind: 'ignored', reason, startsGroup: true };
  }
  return line;
}
