import type { EventRow } from '../events/event-row';

/** created: a message's first events; replaced: an edited message's new events. */
export type NotificationAction = 'created' | 'replaced' | 'updated' | 'deleted';

export interface NotifiedEvent {
  id: number;
  date: string;
  title: string;
  type: string;
  period: string | null;
}

/** What changed, stored in the outbox; each target's payload is built from it when delivered. */
export interface NotificationContent {
  action: NotificationAction;
  /** The chat message the change came from, if it came from one. */
  source: { channel: string | null; message_id: string | null } | null;
  /** How many events changed; only the first MAX_LISTED_EVENTS are listed. */
  total: number;
  events: NotifiedEvent[];
}

export const MAX_LISTED_EVENTS = 25;

export function notificationContent(
  action: NotificationAction,
  events: EventRow[],
  source: NotificationContent['source'] = null,
): NotificationContent {
  return {
    action,
    source,
    total: events.length,
    events: events.slice(0, MAX_LISTED_EVENTS).map((event) => ({
      id: event.id,
      date: event.date,
      title: event.title,
      type: event.type,
      period: event.period,
    })),
  };
}
