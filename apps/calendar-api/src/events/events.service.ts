import type { Database } from '../db';
import { RecurrenceError, toSeries } from './recurrence';
import { EventNotFoundError, invalidField, PreconditionFailedError } from '../errors';
import { notificationContent, type Outbox } from '../notifications';
import { etagOf, ifMatchAllows } from './event-response';
import { byDateThenId, type EventRow } from './event-row';
import { createEventsRepository, type EventChanges } from './events.repository';
import type { EventPatchBody, NewEventBody, RecurrenceBody, TitleEditBody } from './events.schemas';

export interface TitleChange {
  count: number;
  events: EventRow[];
}

/** The recurrence of an event starting on `date`, checked; a 400 naming the rule's problem. */
function seriesOf(date: string, recurrence: RecurrenceBody | null | undefined, zone: string) {
  if (recurrence === null || recurrence === undefined) return recurrence;
  try {
    return toSeries(date, recurrence, zone);
  } catch (error) {
    if (error instanceof RecurrenceError) throw invalidField('recurrence.rrule', error.message);
    throw error;
  }
}

function patchChanges(patch: EventPatchBody): EventChanges {
  const changes: EventChanges = {
    title: patch.title?.trim(),
    description: patch.description,
    type: patch.type,
    period: patch.period,
    date: patch.date,
  };
  if (Object.values(changes).every((value) => value === undefined) && !('recurrence' in patch)) {
    throw invalidField(
      'body',
      'must change at least one of date, title, description, type, period, recurrence',
    );
  }
  return changes;
}

const recurrenceOf = (event: EventRow): RecurrenceBody | null =>
  event.rrule === null ? null : { rrule: event.rrule, exdates: event.exdates };

function titleEditChanges(edit: TitleEditBody): EventChanges {
  const newTitle = edit.newTitle ?? edit.title;
  if (newTitle === undefined && edit.description === undefined) {
    throw invalidField('body', 'must have newTitle (or title) and/or description');
  }
  return { title: newTitle?.trim(), description: edit.description };
}

function describeTitle(title: string, date: string | undefined): string {
  return `title "${title}"${date === undefined ? '' : ` on ${date}`}`;
}

/**
 * Writes to events, one or many. Every edit and deletion is one transaction together with its
 * notification in the outbox.
 */
export function createEventsService({
  db,
  outbox,
  zone,
}: {
  db: Database;
  outbox: Outbox;
  /** CALENDAR_TIMEZONE: the day of a rule's UNTIL given as a UTC time. */
  zone: string;
}) {
  const repository = createEventsRepository(db);

  async function get(id: number): Promise<EventRow> {
    const event = await repository.find(id);
    if (!event) throw new EventNotFoundError(`id ${id}`);
    return event;
  }

  /**
   * With If-Match, the row is only written while it still holds the representation the tag was
   * checked against (every field of it in the WHERE clause): a compare-and-swap, no lost update.
   */
  async function expectedVersion(id: number, ifMatch: string | undefined) {
    if (ifMatch === undefined) return null;
    const current = await get(id);
    if (!ifMatchAllows(ifMatch, etagOf(current))) throw new PreconditionFailedError();
    return current;
  }

  const missed = (id: number, ifMatch: string | undefined) =>
    ifMatch === undefined ? new EventNotFoundError(`id ${id}`) : new PreconditionFailedError();

  return {
    get,

    create(input: NewEventBody): Promise<EventRow> {
      return repository.create({
        date: input.date,
        title: input.title.trim(),
        description: input.description,
        type: input.type,
        period: input.period,
        series: seriesOf(input.date, input.recurrence, zone),
      });
    },

    /**
     * A change of a recurring event's date or rule recomputes its series from the row it read, so
     * that row is then the expected version, If-Match or not (a concurrent change is a 412).
     */
    async update(id: number, patch: EventPatchBody, ifMatch?: string): Promise<EventRow> {
      const changes = patchChanges(patch);
      let expected = await expectedVersion(id, ifMatch);
      if (patch.recurrence !== undefined || patch.date !== undefined) {
        const current = expected ?? (await get(id));
        const rule = patch.recurrence === undefined ? recurrenceOf(current) : patch.recurrence;
        if (rule !== null) {
          changes.series = seriesOf(patch.date ?? current.date, rule, zone);
          expected = current;
        } else if (patch.recurrence === null) changes.series = null;
      }
      return db.transaction(async (tx) => {
        const before = await repository.lockForEdit(tx, { id });
        const updated = before.length > 0 && (await repository.update(tx, id, expected, changes));
        if (!updated) throw missed(id, expected === null ? undefined : '*');
        await outbox.enqueue(tx, notificationContent('updated', [updated], null, before));
        return updated;
      });
    },

    async remove(id: number, ifMatch?: string): Promise<EventRow> {
      const expected = await expectedVersion(id, ifMatch);
      return db.transaction(async (tx) => {
        const event = await repository.remove(tx, id, expected);
        if (!event) throw missed(id, ifMatch);
        await outbox.enqueue(tx, notificationContent('deleted', [event]));
        return event;
      });
    },

    /** Every event with exactly this title (on `date`, if given), in one statement. */
    async editByTitle(
      title: string,
      date: string | undefined,
      edit: TitleEditBody,
    ): Promise<TitleChange> {
      const changes = titleEditChanges(edit);
      return db.transaction(async (tx) => {
        const before = await repository.lockForEdit(tx, { title, date });
        if (before.length === 0) throw new EventNotFoundError(describeTitle(title, date));
        const ids = before.map((event) => event.id);
        const events = (await repository.updateMany(tx, ids, changes)).sort(byDateThenId);
        await outbox.enqueue(tx, notificationContent('updated', events, null, before));
        return { count: events.length, events };
      });
    },

    async deleteByTitle(title: string, date: string | undefined): Promise<TitleChange> {
      return db.transaction(async (tx) => {
        const { count, events } = await repository.removeByTitle(tx, title, date);
        if (events.length === 0) throw new EventNotFoundError(describeTitle(title, date));
        await outbox.enqueue(tx, notificationContent('deleted', events));
        return { count, events };
      });
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
