import type { Db } from '../db';
import { EventNotFoundError, invalidField, PreconditionFailedError } from '../errors';
import type { CalendarEvent, Prisma } from '../generated/prisma/client';
import { notificationContent } from '../notifications/notification-content';
import type { Outbox } from '../notifications/outbox';
import { toDbDate } from '../time/calendar-days';
import { EVENT_ORDER, etagOf, ifMatchAllows } from './event-response';
import type { EventPatchBody, NewEventBody, TitleEditBody } from './events.schemas';

export interface TitleChange {
  count: number;
  events: CalendarEvent[];
}

function patchData(patch: EventPatchBody): Prisma.CalendarEventUpdateInput {
  const data: Prisma.CalendarEventUpdateInput = {
    title: patch.title?.trim(),
    description: patch.description,
    type: patch.type,
    period: patch.period,
    date: patch.date === undefined ? undefined : toDbDate(patch.date),
  };
  if (Object.values(data).every((value) => value === undefined)) {
    throw invalidField(
      'body',
      'must change at least one of date, title, description, type, period',
    );
  }
  return data;
}

function titleEditData(edit: TitleEditBody): Prisma.CalendarEventUpdateInput {
  const newTitle = edit.newTitle ?? edit.title;
  if (newTitle === undefined && edit.description === undefined) {
    throw invalidField('body', 'must have newTitle (or title) and/or description');
  }
  return { title: newTitle?.trim(), description: edit.description };
}

function byTitle(title: string, date: string | undefined): Prisma.CalendarEventWhereInput {
  return date === undefined ? { title } : { title, date: toDbDate(date) };
}

function describeTitle(title: string, date: string | undefined): string {
  return `title "${title}"${date === undefined ? '' : ` on ${date}`}`;
}

/**
 * Writes to events, one or many. Every edit and deletion is one transaction together with its
 * notification in the outbox.
 */
export function createEventsService({ db, outbox }: { db: Db; outbox: Outbox }) {
  async function get(id: number): Promise<CalendarEvent> {
    const event = await db.calendarEvent.findUnique({ where: { id } });
    if (!event) throw new EventNotFoundError(`id ${id}`);
    return event;
  }

  /**
   * With If-Match, the row is only written while it still holds the representation the tag was
   * checked against (every field of it in the WHERE clause): a compare-and-swap, no lost update.
   */
  async function versionFilter(
    id: number,
    ifMatch: string | undefined,
  ): Promise<Prisma.CalendarEventWhereInput> {
    if (ifMatch === undefined) return { id };
    const current = await get(id);
    if (!ifMatchAllows(ifMatch, etagOf(current))) throw new PreconditionFailedError();
    return current;
  }

  return {
    get,

    create(input: NewEventBody): Promise<CalendarEvent> {
      return db.calendarEvent.create({
        data: {
          date: toDbDate(input.date),
          title: input.title.trim(),
          description: input.description,
          type: input.type,
          period: input.period,
        },
      });
    },

    async update(id: number, patch: EventPatchBody, ifMatch?: string): Promise<CalendarEvent> {
      const data = patchData(patch);
      const where = await versionFilter(id, ifMatch);
      return db.$transaction(async (tx) => {
        const [updated] = await tx.calendarEvent.updateManyAndReturn({ where, data });
        if (!updated && ifMatch === undefined) throw new EventNotFoundError(`id ${id}`);
        if (!updated) throw new PreconditionFailedError();
        await outbox.enqueue(tx, notificationContent('updated', [updated]));
        return updated;
      });
    },

    async remove(id: number, ifMatch?: string): Promise<CalendarEvent> {
      const where = await versionFilter(id, ifMatch);
      return db.$transaction(async (tx) => {
        const event = await tx.calendarEvent.findFirst({ where });
        const { count } = await tx.calendarEvent.deleteMany({ where });
        if (!event || count !== 1) {
          throw ifMatch === undefined
            ? new EventNotFoundError(`id ${id}`)
            : new PreconditionFailedError();
        }
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
      const data = titleEditData(edit);
      return db.$transaction(async (tx) => {
        const events = await tx.calendarEvent.updateManyAndReturn({
          where: byTitle(title, date),
          data,
        });
        if (events.length === 0) throw new EventNotFoundError(describeTitle(title, date));
        events.sort((a, b) => a.date.getTime() - b.date.getTime() || a.id - b.id);
        await outbox.enqueue(tx, notificationContent('updated', events));
        return { count: events.length, events };
      });
    },

    async deleteByTitle(title: string, date: string | undefined): Promise<TitleChange> {
      return db.$transaction(async (tx) => {
        const events = await tx.calendarEvent.findMany({
          where: byTitle(title, date),
          orderBy: [...EVENT_ORDER],
        });
        if (events.length === 0) throw new EventNotFoundError(describeTitle(title, date));
        const { count } = await tx.calendarEvent.deleteMany({
          where: { id: { in: events.map((e) => e.id) } },
        });
        await outbox.enqueue(tx, notificationContent('deleted', events));
        return { count, events };
      });
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
