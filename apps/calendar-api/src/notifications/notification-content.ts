/**
 * created: a message's first events; replaced: an edited message's new events; digest: the
 * next day's events; reminder: an event about to start.
 */
export type NotificationAction =
  'created' | 'replaced' | 'updated' | 'deleted' | 'digest' | 'reminder';

/** One field of an edited event, before and after (texts cut to MAX_CHANGE_LENGTH). */
export interface FieldChange {
  field: 'title' | 'date' | 'description';
  was: string;
  now: string;
}

export interface NotifiedEvent {
  id: number;
  date: string;
  title: string;
  type: string;
  period: string | null;
  /** An edit's changes to title, date and description, only those that changed. */
  changes?: FieldChange[];
}

/** The fields of an event that a notification tells of (an EventRow has them and more). */
export interface NoticeEvent {
  id: number;
  date: string;
  title: string;
  description: string;
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
/** A description may hold 5000 characters: a notification shows the start of it. */
export const MAX_CHANGE_LENGTH = 200;
const CHANGED_FIELDS = ['title', 'date', 'description'] as const;

/** What an edit did to the fields people read, in that order; unchanged fields are left out. */
export function fieldChanges(before: NoticeEvent, after: NoticeEvent): FieldChange[] {
  return CHANGED_FIELDS.filter((field) => before[field] !== after[field]).map((field) => ({
    field,
    was: cut(before[field]),
    now: cut(after[field]),
  }));
}

const cut = (text: string) =>
  [...text].length > MAX_CHANGE_LENGTH
    ? `${[...text].slice(0, MAX_CHANGE_LENGTH - 1).join('')}…`
    : text;

/** `previous`: the events as they were before an edit, so that it says what changed. */
export function notificationContent(
  action: NotificationAction,
  events: NoticeEvent[],
  source: NotificationContent['source'] = null,
  previous: NoticeEvent[] = [],
): NotificationContent {
  const before = new Map(previous.map((event) => [event.id, event]));
  return {
    action,
    source,
    total: events.length,
    events: events.slice(0, MAX_LISTED_EVENTS).map((event) => {
      const was = before.get(event.id);
      const changes = was ? fieldChanges(was, event) : [];
      return {
        id: event.id,
        date: event.date,
        title: event.title,
        type: event.type,
        period: event.period,
        ...(changes.length > 0 ? { changes } : {}),
      };
    }),
  };
}
