import type { FastifyInstance } from 'fastify';
import { parseExposition, sampleSum, type Exposition } from '@platform/metrics';
import { dashboardNamesMissing, waitFor } from '@platform/testing';
import { addEvent } from '../../test/factories';
import type { Harness } from '../../test/harness';
import { useWebhookWorld, webhooksTo } from '../../test/webhook-world';
import type { WebhookServer } from '../../test/webhook-server';

const TOKEN = 'calendar-metrics-token-xxxxxxxxxx';
let server: WebhookServer;
let h: Harness;
useWebhookWorld(
  (server) => ({
    NOTIFY_WEBHOOKS: webhooksTo(server, 'slack', 'discord'),
    NOTIFY_BACKOFF_BASE_MS: '40',
    NOTIFY_BACKOFF_MAX_MS: '80',
    NOTIFY_MAX_ATTEMPTS: '2',
    METRICS_TOKEN: TOKEN,
  }),
  (world) => ({ server, h } = world),
);

async function scrape(app: FastifyInstance = h.app): Promise<Exposition> {
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return parseExposition(res.body);
}
const dispatch = () => h.app.workers.dispatcher.runOnce();
const dueNow = () => h.db.notification.updateMany({ data: { nextAttemptAt: new Date(0) } });
async function notifyDeletion() {
  const event = await addEvent(h, { title: 'Unit 5 quiz' });
  expect((await h.request({ method: 'DELETE', url: `event/${event.id}` })).statusCode).toBe(200);
}

describe('calendar-api /metrics', () => {
  it('exports every metric the Grafana dashboard reads of calendar-api', async () => {
    expect(dashboardNamesMissing((await scrape()).types.keys(), 'workspace_')).toEqual([]);
  });

  it('shows the outbox backlog and counts deliveries, retries and failures by target', async () => {
    await h.db.notification.deleteMany();
    const before = await scrape();
    const attempts = (parsed: Exposition, target: string, outcome: string) =>
      sampleSum(parsed, 'calendar_notification_deliveries_total', { target, outcome }) -
      sampleSum(before, 'calendar_notification_deliveries_total', { target, outcome });
    const pending = (parsed: Exposition, target: string) =>
      sampleSum(parsed, 'calendar_notifications_pending', { target });

    await notifyDeletion();
    const queued = await scrape();
    expect(pending(queued, 'slack')).toBe(1);
    expect(pending(queued, 'discord')).toBe(1);
    expect(
      sampleSum(queued, 'calendar_notifications_oldest_pending_seconds', { target: 'slack' }),
    ).toBeGreaterThanOrEqual(0);

    server.respond((request) => ({ status: request.path === '/discord' ? 500 : 200 }));
    expect(await dispatch()).toBe(2);
    const first = await scrape();
    expect(pending(first, 'slack')).toBe(0);
    expect(pending(first, 'discord')).toBe(1);
    expect(attempts(first, 'slack', 'delivered')).toBe(1);
    expect(attempts(first, 'discord', 'retried')).toBe(1);

    await dueNow();
    expect(await dispatch()).toBe(1);
    const last = await scrape();
    expect(pending(last, 'discord')).toBe(0);
    expect(attempts(last, 'discord', 'failed')).toBe(1);
    expect(attempts(last, 'discord', 'delivered')).toBe(0);
  });

  it("measures the dispatcher's rounds while it runs", async () => {
    const running = await h.otherApp({ NOTIFY_DISPATCH: 'on', NOTIFY_INTERVAL_MS: '20' });
    await running.ready();
    await waitFor(async () => {
      const parsed = await scrape(running);
      const loop = { loop: 'notification-dispatcher' };
      const rounds = sampleSum(parsed, 'background_round_duration_seconds_count', loop);
      if (rounds < 3) throw new Error(`${rounds} rounds so far`);
      expect(sampleSum(parsed, 'background_round_lateness_seconds_count', loop)).toBe(rounds);
    }, 30_000);
    await running.close();
  });
});
