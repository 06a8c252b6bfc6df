import { hash } from 'node:crypto';
import ical, { ICalCalendarMethod } from 'ical-generator';
import { addDays, toDbDate } from '../domain';
import type { EventRow } from '../events';

export interface FeedOptions {
  name: string;
  uidDomain: string;
}

/** Stable for the life of the event, so calendar apps update it instead of duplicating it. */
export function eventUid(id: number, domain: string): string {
  return `event-${id}@${domain}`;
}

/** RRULE and EXDATE of a recurring all-day event (UNTIL is stored as a date, as DTSTART is). */
function recurrenceLines(event: EventRow): string | null {
  if (event.rrule === null) return null;
  const lines = [`RRULE:${event.rrule}`];
  if (event.exdates.length > 0) {
    lines.push(`EXDATE;VALUE=DATE:${event.exdates.map((d) => d.replaceAll('-', '')).join(',')}`);
  }
  return lines.join('\n');
}

/**
 * An RFC 5545 calendar of all-day events (DTEND is the next day: it is exclusive). DTSTAMP is
 * the event's last change rather than "now", so an unchanged calendar yields the same bytes.
 * Dates are midnight UTC values and the calendar has no time zone, so they are written as the
 * same calendar dates whatever the server's zone. SEQUENCE is the event's revision, so a calendar
 * app that holds the event takes a moved one over its copy.
 */
export function buildCalendarFeed(events: EventRow[], options: FeedOptions): string {
  const calendar = ical({
    name: options.name,
    prodId: { company: 'workspace-platform', product: 'calendar-api', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    ttl: 3600,
  });
  for (const event of events) {
    calendar.createEvent({
      id: eventUid(event.id, options.uidDomain),
      allDay: true,
      start: toDbDate(event.date),
      end: toDbDate(addDays(event.date, 1)),
      summary: event.title,
      description: event.description === '' ? null : event.description,
      categories: [{ name: event.type }],
      stamp: new Date(event.updatedAt),
      lastModified: new Date(event.updatedAt),
      created: new Date(event.createdAt),
      sequence: event.sequence,
      repeating: recurrenceLines(event),
    });
  }
  // RFC 5545 3.1: every content line ends with CRLF, the last one too.
  return calendar.toString().replace(/(?:\r\n)?$/, '\r\n');
}

/** A strong ETag of the feed's bytes, for conditional GETs by polling calendar apps. */
export function feedEtag(body: string): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/** RFC 9110 If-None-Match, compared weakly: `*` or any listed tag equal to ours, W/ or not. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
