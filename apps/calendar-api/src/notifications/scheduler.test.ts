import type { FastifyInstance } from 'fastify';
import { addEvent } from '../../test/factories';
import { eventually } from '../../test/eventually';
import type { Harness } from '../../test/harness';
import { useWebhookWorld, webhooksTo } from '../../test/webhook-world';
import type { WebhookServer } from '../../test/webhook-server';

// The harness's clock stands at 2025-03-05T15:00Z (a Wednesday): the digest (09:00) is due for
// Thursday the 6th, and reminders two days ahead cover the 6th and the 7th.
const SCHEDULE = {
  DIGEST_TIME: '09:00',
  REMINDER_MINUTES_BEFORE: '2880',
  REMINDER_TYPES: 'grade',
};
const RUNNING = {
  SCHEDULER_WORKER: 'on',
  SCHEDULER_INTERVAL_MS: '20',
  NOTIFY_DISPATCH: 'on',
  NOTIFY_INTERVAL_MS: '20',
};

let server: WebhookServer;
let h: Harness;
useWebhookWorld(
  (server) => ({ NOTIFY_WEBHOOKS: webhooksTo(server, 'slack'), ...SCHEDULE }),
  (world) => ({ server, h } = world),
);

const received = () => server.on('/slack').map((r) => JSON.parse(r.body).text as string);
const claims = async () =>
  (await h.db.scheduledNotice.findMany({ orderBy: { id: 'asc' } })).map(
    (n) => `${n.kind} ${n.target} ${n.occurrence} ${n.sent ? 'sent' : 'not sent'}`,
  );
async function seed() {
  await addEvent(h, { date: '2025-03-06', title: 'Lab 3', type: 'check-in', period: 'CSA' });
  const quiz = await addEvent(h, { date: '2025-03-07', title: 'Unit 5 quiz', type: 'grade' });
  await addEvent(h, { date: '2025-03-10', title: 'Unit 6 quiz', type: 'grade' });
  return quiz;
}

describe('digests and reminders', () => {
  it('delivers the digest and a reminder once with two instances running, and not again after a restart', async () => {
    const quiz = await seed();
    const first = await h.otherApp(RUNNING);
    const second = await h.otherApp(RUNNING);
    await Promise.all([first.ready(), second.ready()]);
    await eventually(() => expect(received()).toHaveLength(2));
    // Both instances look again, at once, and deliver whatever is due: nothing is.
    const runAll = (apps: FastifyInstance[]) =>
      Promise.all(apps.map((app) => app.workers.scheduler.runOnce()));
    expect(await runAll([first, second, first, second])).toEqual([0, 0, 0, 0]);
    await Promise.all([first.workers.dispatcher.runOnce(), second.workers.dispatcher.runOnce()]);
    await first.close();
    await second.close();
    const restarted = await h.otherApp();
    expect(await restarted.workers.scheduler.runOnce()).toBe(0);
    expect(await restarted.workers.dispatcher.runOnce()).toBe(0);

    expect(received().sort()).toEqual([
      '⏰ Reminder: 1 event coming up\n• Fri 2025-03-07: Unit 5 quiz (grade)',
      '🗓️ Tomorrow, Thu 2025-03-06: 1 event\n• Thu 2025-03-06: Lab 3 (check-in, CSA)',
    ]);
    expect(await claims()).toEqual([
      'digest slack 2025-03-06 sent',
      `reminder slack ${quiz.id}@2025-03-07 sent`,
    ]);
    const log = (await h.get('notifications')).json() as { action: string; status: string }[];
    expect(log.map((n) => `${n.action} ${n.status}`).sort()).toEqual([
      'digest delivered',
      'reminder delivered',
    ]);
  });

  it('claims each notice once when two schedulers run at the same moment', async () => {
    await seed();
    const other = await h.otherApp();
    const results = await Promise.all([
      h.app.workers.scheduler.runOnce(),
      other.workers.scheduler.runOnce(),
    ]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await h.db.notification.count()).toBe(2);
  });

  it('sends no digest when the next day has no event, nor later that day', async () => {
    await addEvent(h, { date: '2025-03-08', title: 'Weekend study' });
    expect(await h.app.workers.scheduler.runOnce()).toBe(1);
    await addEvent(h, { date: '2025-03-06', title: 'Added late' });
    expect(await h.app.workers.scheduler.runOnce()).toBe(0);
    expect(await h.db.notification.count()).toBe(0);
    expect(await claims()).toEqual(['digest slack 2025-03-06 not sent']);
  });

  it('waits for the local digest time in CALENDAR_TIMEZONE, and for the reminder lead', async () => {
    await seed();
    const app = await h.otherApp({
      CALENDAR_TIMEZONE: 'America/Los_Angeles',
      DIGEST_TIME: '08:00',
      REMINDER_MINUTES_BEFORE: '600',
      REMINDER_TYPES: '',
    });
    // 15:00 UTC is 07:00 in Los Angeles: no digest yet, and the 6th starts in 17 hours.
    expect(await app.workers.scheduler.runOnce()).toBe(0);
    h.setNow(new Date('2025-03-05T16:00:00Z'));
    expect(await app.workers.scheduler.runOnce()).toBe(1);
    expect(await claims()).toEqual(['digest slack 2025-03-06 sent']);
    // 18:00 in Los Angeles: the 6th starts in 6 hours, within the 10 hours' lead.
    h.setNow(new Date('2025-03-06T02:00:00Z'));
    expect(await app.workers.scheduler.runOnce()).toBe(1);
    expect((await claims()).at(-1)).toMatch(/^reminder slack \d+@2025-03-06 sent$/);
  });
});
