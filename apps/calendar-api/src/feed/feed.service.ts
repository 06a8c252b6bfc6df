import type { Config } from '../config';
import type { Database } from '../db';
import { byDateThenId } from '../events/event-row';
import { createEventsRepository } from '../events/events.repository';
import { buildCalendarFeed, feedEtag } from './calendar-feed';

export interface FeedQuery {
  type?: string;
  period?: string;
}

/** The iCalendar feed: every event, or those of one type and/or period. */
export function createFeedService({ db, config }: { db: Database; config: Config }) {
  const events = createEventsRepository(db);
  const options = { name: config.CALENDAR_NAME, uidDomain: config.CALENDAR_UID_DOMAIN };
  return {
    async render(query: FeedQuery): Promise<{ body: string; etag: string }> {
      // Recurring events go in once each, with their rule: calendar apps expand it.
      const rows = await events.select({ type: query.type, period: query.period });
      const body = buildCalendarFeed(rows.sort(byDateThenId), options);
      return { body, etag: feedEtag(body) };
    },
  };
}
export type FeedService = ReturnType<typeof createFeedService>;
