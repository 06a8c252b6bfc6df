import { createHash } from 'node:crypto';
import type { CalendarEvent } from '../generated/prisma/client';
import { fromDbDate } from '../time/calendar-days';
import type { EventResponse } from './events.schemas';

/** Every list of events is ordered by date, then id: the order keyset paging walks. */
export const EVENT_ORDER = [{ date: 'asc' }, { id: 'asc' }] as const satisfies object[];

/** The wire form of an event (contract §1). */
export function toEventResponse(event: CalendarEvent): EventResponse {
  return {
    id: event.id,
    date: fromDbDate(event.date),
    title: event.title,
    description: event.description,
    type: event.type,
    period: event.period,
    created_at: event.createdAt.toISOString(),
    updated_at: event.updatedAt.toISOString(),
    source:
      event.chatMessageId === null
        ? null
        : { channel: event.sourceChannel, message_id: event.sourceMessageId },
  };
}

/** A strong ETag: a digest of the wire form, so it changes exactly when the representation does. */
export function etagOf(event: CalendarEvent): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(toEventResponse(event)))
    .digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

/**
 * RFC 9110 If-Match: `*` or a list of entity tags compared strongly, so a weak tag never matches.
 * An absent header allows the change.
 */
export function ifMatchAllows(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim() === etag);
}
