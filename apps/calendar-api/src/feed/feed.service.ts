import type { Config } from '../config';
import type { EventQueriesService } from '../events';
import { buildCalendarFeed, feedEtag } from './calendar-feed';

export interface FeedQuery {
  type?: string;
  period?: string;
}

/** The iCalendar feed: every event, or those of one type and/or period. */
export function createFeedService({
  events,
  config,
}: {
  events: Pick<EventQueriesService, 'withRules'>;
  config: Config;
}) {
  const options = { name: config.CALENDAR_NAME, uidDomain: config.CALENDAR_UID_DOMAIN };
  return {
    async render(query: FeedQuery): Promise<{ body: string; etag: string }> {
      // Recurring events go in once each, with their rule: calendar apps expand it.
      const rows = await events.withRules({ type: query.type, period: query.period });
      const body = buildCalendarFeed(rows, options);
      return { body, etag: feedEtag(body) };
    },
  };
}
export type FeedService = ReturnType<typeof createFeedService>;
