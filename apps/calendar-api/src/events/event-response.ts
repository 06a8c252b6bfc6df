import { hash } from 'node:crypto';
import type { EventRow } from './event-row';
import type { EventResponse } from './events.schemas';

/** The wire form of an event (contract §1): the one mapping from its row. */
export function toEventResponse(row: EventRow): EventResponse {
  return {
    id: row.id,
    date: row.date,
    title: row.title,
    description: row.description,
    type: row.type,
    period: row.period,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    source: row.fromChat ? { channel: row.sourceChannel, message_id: row.sourceMessageId } : null,
    recurrence: row.rrule === null ? null : { rrule: row.rrule, exdates: row.exdates },
  };
}

/** A strong ETag: a digest of the wire form, so it changes exactly when the representation does. */
export function etagOf(event: EventRow): string {
  const digest = hash('sha256', JSON.stringify(toEventResponse(event)), 'base64url');
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
