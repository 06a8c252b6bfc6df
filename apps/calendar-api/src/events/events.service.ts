import type { Database } from '../db';
import { EventNotFoundError, invalidField, PreconditionFailedError } from '../errors';
import { notificationContent } from '../notifications/notification-content';
import type { Outbox } from '../notifications/outbox';
import { etagOf, ifMatchAllows } from './event-response';
import { byDateThenId, type EventRow } from './event-row';
import { createEventsRepository, type EventChanges } from './events.repository';
import type { EventPatchBody, NewEventBody, TitleEditBody } from './events.schemas';

export interface TitleChange {
  count: number;
  events: EventRow[];
}

function patchChanges(patch: EventPatchBody): EventChanges {
  const changes: EventChanges = {
    title: patch.title?.trim(),
    description: patch.description,
    type: patch.type,
    period: patch.period,
    date: patch.date,
  };
  if (Object.values(changes).every((value) => value === undefined)) {
    throw invalidField(
      'body',
      'must change at least one of date, title, description, type, period',
    );
  }
  return changes;
}

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
export function createEventsService({ db, outbox }: { db: Database; outbox: Outbox }) {
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
      });
    },

    async update(id: number, patch: EventPatchBody, ifMatch?: string): Promise<EventRow> {
      const changes = patchChanges(patch);
      const expected = await expectedVersion(id, ifMatch);
      return db.transaction(async (tx) => {
        const before = await repository.lockForEdit(tx, { id });
        const updated = before.length > 0 && (await repository.update(tx, id, expected, changes));
        if (!updated) throw missed(id, ifMatch);
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
