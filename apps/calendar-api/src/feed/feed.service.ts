import type { Config } from '../config';
import type { Db } from '../db';
import { EVENT_ORDER } from '../events/event-response';
import { buildCalendarFeed, feedEtag } from './calendar-feed';

export interface FeedQuery {
  type?: string;
  period?: string;
}

/** The iCalendar feed: every event, or those of one type and/or period. */
export function createFeedService({ db, config }: { db: Db; config: Config }) {
  const options = { name: config.CALENDAR_NAME, uidDomain: config.CALENDAR_UID_DOMAIN };
  return {
    async render(query: FeedQuery): Promise<{ body: string; etag: string }> {
      const events = await db.calendarEvent.findMany({
        where: { type: query.type, period: query.period },
        orderBy: [...EVENT_ORDER],
      });
      const body = buildCalendarFeed(events, options);
      return { body, etag: feedEtag(body) };
    },
  };
}
export type FeedService = ReturnType<typeof createFeedService>;
