import type { Harness } from './harness';
import { sendToSlackRoute, SIGNING_SECRET } from './slack-signing';

/** A harness's settings for the Slack tests, its channel mapped to CSA. */
export const SLACK_ENV = {
  SLACK_SIGNING_SECRET: SIGNING_SECRET,
  CHANNEL_PERIODS: 'C123=CSA',
  // Reads need a token too: the Slack route must still be reachable without one.
  CALENDAR_AUTH: 'all',
  NOTIFY_WEBHOOKS: 'slack=http://127.0.0.1:9/never-called',
};
export const TS = '1741000000.000100';
export const PLAN =
  'Week of 3/3/2025\n[Mon]: Unit 5 intro\n[Tue - Thu]: * Lab 3\n[Fri]: ** Unit 5 quiz';

/** Sending to the Slack route, running the inbox by hand, and reading the events it made. */
export function slackWorld(harness: () => Harness) {
  const eventRows = () =>
    harness().db.calendarEvent.findMany({ orderBy: [{ date: 'asc' }, { id: 'asc' }] });
  return {
    send: (payload: object | string, options?: Parameters<typeof sendToSlackRoute>[2]) =>
      sendToSlackRoute(harness().app, payload, options),
    process: () => harness().app.workers.slackInbox.runOnce(),
    eventRows,
    summary: async () =>
      (await eventRows()).map((e) => `${e.date.toISOString().slice(0, 10)} ${e.title} ${e.period}`),
  };
}
