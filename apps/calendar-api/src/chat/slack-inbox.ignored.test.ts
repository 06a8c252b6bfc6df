import { createHarness, type Harness } from '../../test/harness';
import { messageChanged, messagePosted } from '../../test/slack-payloads';
import { PLAN, SLACK_ENV, slackWorld, TS } from '../../test/slack-world';

let h: Harness;
beforeAll(async () => {
  h = await createHarness(SLACK_ENV);
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const { send, process, summary } = slackWorld(() => h);

describe('Slack events the inbox leaves without effect', () => {
  it('ignores, without a reply, a message whose "Week of" date does not exist, recording why', async () => {
    await send(messagePosted('C123', TS, 'Week of 2/30/2025\n[Mon]: Unit 5 intro'));
    expect(await process()).toBe(1);
    expect(await h.db.slackInbox.findFirst()).toMatchObject({
      status: 'ignored',
      attempts: 1,
      lastError: null,
      ignoredReason: '"Week of" names a date that does not exist: "Week of 2/30/2025"',
    });
    expect(await h.db.calendarEvent.count()).toBe(0);
    expect(await h.db.notification.count()).toBe(0);
    expect(await process()).toBe(0);
  });

  it('never lets a late retry of the original post overwrite a newer edit', async () => {
    // The post's first delivery failed (an outage); Slack retried it after the edit was applied.
    await send(messageChanged('C123', TS, '[Wed]: Edited', PLAN));
    expect(await process()).toBe(1);
    await send(messagePosted('C123', TS, PLAN));
    expect(await process()).toBe(1);
    expect(await summary()).toEqual(['2025-03-05 Edited CSA']);
    const inbox = await h.db.slackInbox.findMany({ orderBy: { id: 'asc' } });
    expect(inbox.map((row) => [row.status, row.ignoredReason])).toEqual([
      ['done', null],
      ['ignored', 'an older version of the message than the one stored (a late delivery)'],
    ]);
    const actions = await h.db.notification.findMany({ orderBy: { id: 'asc' } });
    expect(actions.map((n) => n.action)).toEqual(['created']);
  });

  it('never lets a late older edit overwrite a newer one, and applies a newer one', async () => {
    await send(messageChanged('C123', TS, '[Thu]: Second edit', PLAN, 120));
    await send(messageChanged('C123', TS, '[Wed]: First edit', PLAN, 60));
    await send(messageChanged('C123', TS, '[Fri]: Third edit', PLAN, 180));
    expect(await process()).toBe(3);
    expect(await summary()).toEqual(['2025-03-07 Third edit CSA']);
    const inbox = await h.db.slackInbox.findMany({ orderBy: { id: 'asc' } });
    expect(inbox.map((row) => row.status)).toEqual(['done', 'ignored', 'done']);
  });
});
