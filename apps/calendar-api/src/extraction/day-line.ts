import { type EventType, typeForMarker } from './event-type';

export type DayLine =
  | { kind: 'day-line'; offsets: number[]; title: string; type: EventType }
  | { kind: 'invalid'; reason: string };

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
const DAY_RANGE = /^([a-z]+)\.?(?:\s*(?:-|–|—|\bto\b)\s*([a-z]+)\.?)?$/i;
const MARKER = /^(\*\*|\*)\s*/;

/** Offsets from Monday; a week runs Monday (0) to Sunday (6). */
const DAY_OFFSETS: Readonly<Record<string, number>> = {
  mon: 0,
  monday: 0,
  tue: 1,
  tues: 1,
  tuesday: 1,
  wed: 2,
  wednesday: 2,
  thu: 3,
  thur: 3,
  thurs: 3,
  thursday: 3,
  fri: 4,
  friday: 4,
  sat: 5,
  saturday: 5,
  sun: 6,
  sunday: 6,
};
const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * Reads `[Mon]: title` or `[Tue - Thu]: * title`. Returns null when the brackets hold no day
 * names (the line is something else), and a reason when the days form a backwards range.
 */
export function parseDayLine(line: string): DayLine | null {
  const match = splitDayLine(line);
  if (!match) return null;
  const offsets = parseDays(match[1]);
  if (offsets === null) return null;
  if (offsets.length === 0) {
    return { kind: 'invalid', reason: backwardsReason(match[1]) };
  }
  const { title, type } = parseTitle(match[2]);
  return { kind: 'day-line', offsets, title, type };
}

/**
 * `[ days ] : title` as [line, days, title], or null: what `/^\[\s*([^\]]*?)\s*\]\s*:?\s*(.*)$/`
 * matched, without its backtracking, which took minutes on a 5 000-character line that opens a
 * bracket and never closes it (a message is 40 000 characters at most).
 */
export function splitDayLine(line: string): [string, string, string] | null {
  if (!line.startsWith('[')) return null;
  const close = line.indexOf(']');
  if (close < 0) return null;
  let title = line.slice(close + 1).trimStart();
  if (title.startsWith(':')) title = title.slice(1).trimStart();
  if (LINE_TERMINATOR.test(title)) return null;
  return [line, line.slice(1, close).trim(), title];
}

/** null: not day names; []: a backwards range. */
function parseDays(spec: string): number[] | null {
  const range = DAY_RANGE.exec(spec);
  if (!range) return null;
  const first = DAY_OFFSETS[range[1].toLowerCase()];
  const last = range[2] === undefined ? first : DAY_OFFSETS[range[2].toLowerCase()];
  if (first === undefined || last === undefined) return null;
  const offsets: number[] = [];
  for (let offset = first; offset <= last; offset += 1) offsets.push(offset);
  return offsets;
}

function backwardsReason(spec: string): string {
  const range = DAY_RANGE.exec(spec) as RegExpExecArray;
  const first = DAY_NAMES[DAY_OFFSETS[range[1].toLowerCase()]];
  const last = DAY_NAMES[DAY_OFFSETS[(range[2] as string).toLowerCase()]];
  return `backwards day range: ${first} comes after ${last} in a Monday–Sunday week`;
}

/**
 * `*` right after the colon is a check-in, `**` a grade. Slack bold (`*Quiz*`, `**Quiz**`) is
 * unwrapped wherever it stands, the leading one included (`*Quiz* on loops` is a check-in
 * titled "Quiz on loops"); a lone star that closes nothing stays.
 */
export function parseTitle(text: string): { title: string; type: EventType } {
  const marker = MARKER.exec(text);
  const unwrapped = unwrapSlackBold(text);
  const title = marker ? unwrapped.replace(MARKER, '') : unwrapped;
  return { title: title.trim(), type: typeForMarker(marker?.[1]) };
}

// An opening run of stars at a word's start, text with no star, the same run at a word's end.
const SLACK_BOLD = /(^|[\s([{"'])(\*{1,2})(?=[^\s*])([^*]*?[^\s*])\2(?=$|[\s)\]}"'.,;:!?])/g;

export function unwrapSlackBold(text: string): string {
  return text.replace(SLACK_BOLD, '$1$3');
}
