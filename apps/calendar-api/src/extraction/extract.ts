import { type Day, formatDay, mondayForAnchor, parseIsoDay } from '../domain';
import { readEventLine } from './event-line';
import { type EventType, typeForMarker } from './event-type';
import { decodeSlackText } from './slack-text';
import { parseWeekAnchor, type WeekAnchor } from './week-anchor';

export interface ExtractInput {
  /** The raw chat message, in Slack mrkdwn. */
  text: string;
  /** "Today" as YYYY-MM-DD in CALENDAR_TIMEZONE. */
  referenceDate: string;
  /** YYYY-MM-DD from the request; takes precedence over any "Week of" line. */
  weekStart?: string;
  period: string | null;
}

export interface ExtractedEvent {
  date: string;
  title: string;
  description: string;
  type: EventType;
  period: string | null;
}

export interface IgnoredLine {
  line: string;
  reason: string;
}

export interface ExtractResult {
  /** The Monday of the week the message is read against (of its first "Week of" line, if several). */
  weekStart: string;
  events: ExtractedEvent[];
  ignoredLines: IgnoredLine[];
}

export const MAX_DESCRIPTION_LENGTH = 5000;

/**
 * The message cannot be read without guessing (a "Week of" date that does not exist): nothing
 * of it is stored, and the sender is told why.
 */
export class MessageRejectedError extends Error {
  constructor(
    readonly line: string,
    readonly reason: string,
  ) {
    super(`${reason}: "${line}"`);
    this.name = 'MessageRejectedError';
  }
}

const BULLET = /^(\*\*|\*)?\s*(?:[•◦]|-(?!-))\s*(.*)$/;

interface DraftEvent {
  date: Day;
  title: string;
  type: EventType;
  details: string[];
  detailsLength: number;
}

/**
 * Turns one chat message into calendar events (spec §3). Pure: "today", the requested week and
 * the period come in as arguments. Throws RangeError when referenceDate or weekStart is not a
 * real YYYY-MM-DD date, and MessageRejectedError when a "Week of" line names a date that does
 * not exist (the week would be a guess); anything else wrong is reported in ignoredLines.
 */
export function extractEvents(input: ExtractInput): ExtractResult {
  const reference = requireDay(input.referenceDate, 'referenceDate');
  const requested = input.weekStart === undefined ? null : requireDay(input.weekStart, 'weekStart');
  const lines = decodeSlackText(input.text)
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim());
  const anchors = lines.map((line) => parseWeekAnchor(line, reference));

  const firstWeek = mondayForAnchor(requested ?? firstAnchorDate(anchors) ?? reference);
  let week = firstWeek;
  const drafts: DraftEvent[] = [];
  const ignoredLines: IgnoredLine[] = [];
  const ignore = (line: string, reason: string) => ignoredLines.push({ line, reason });
  // The events the next bullets describe: those of the latest day line (or dated line).
  let group: DraftEvent[] = [];
  let orphanReason = 'bullet before any day line';

  lines.forEach((line, index) => {
    if (line === '') return;

    const anchor = anchors[index];
    if (anchor !== null) {
      if (anchor.kind === 'impossible' && requested === null) {
        throw new MessageRejectedError(line, anchor.reason);
      }
      if (anchor.kind !== 'anchor') ignore(line, anchor.reason);
      else if (requested !== null) ignore(line, 'week_start in the request takes precedence');
      else week = mondayForAnchor(anchor.date);
      group = [];
      orphanReason = 'bullet before any day line of this week';
      return;
    }

    const bullet = BULLET.exec(line);
    if (bullet) {
      const problem =
        group.length === 0 ? orphanReason : describe(group, bullet[2].trim(), bullet[1]);
      if (problem !== null) ignore(line, problem);
      return;
    }

    const eventLine = readEventLine(line, week);
    if (eventLine.kind === 'ignored') {
      ignore(line, eventLine.reason);
      if (eventLine.startsGroup) {
        group = [];
        orphanReason = 'describes a line that was ignored';
      }
      return;
    }
    group = eventLine.dates.map((date) => ({
      date,
      title: eventLine.title,
      type: eventLine.type,
      details: [],
      detailsLength: 0,
    }));
    drafts.push(...group);
  });

  return { weekStart: formatDay(firstWeek), events: finish(drafts, input.period), ignoredLines };
}

/** Appends a bullet to every event of a non-empty group; returns why it could not, or null. */
function describe(group: DraftEvent[], text: string, marker: string | undefined): string | null {
  if (text === '') return 'empty bullet';
  const length = group[0].detailsLength + (group[0].details.length > 0 ? 2 : 0) + [...text].length;
  if (length > MAX_DESCRIPTION_LENGTH) {
    return `description would be longer than ${MAX_DESCRIPTION_LENGTH} characters`;
  }
  for (const event of group) {
    event.details.push(text);
    event.detailsLength = length;
    if (marker !== undefined) event.type = typeForMarker(marker);
  }
  return null;
}

/** Sorted by date; Array#sort is stable, so events of one date keep their line order. */
function finish(drafts: DraftEvent[], period: string | null): ExtractedEvent[] {
  return drafts
    .map((draft) => ({
      date: formatDay(draft.date),
      title: draft.title,
      description: draft.details.join(', '),
      type: draft.type,
      period,
    }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

function firstAnchorDate(anchors: readonly (WeekAnchor | null)[]): Day | null {
  for (const anchor of anchors) if (anchor?.kind === 'anchor') return anchor.date;
  return null;
}

function requireDay(value: string, name: string): Day {
  const day = parseIsoDay(value);
  if (day === null) throw new RangeError(`${name} must be a real YYYY-MM-DD date, got "${value}"`);
  return day;
}
