import { addEvent } from '../../test/factories';
import { eventually } from '../../test/eventually';
import type { Harness } from '../../test/harness';
import { useWebhookWorld, webhooksTo } from '../../test/webhook-world';
import { createGate, type WebhookServer } from '../../test/webhook-server';

let server: WebhookServer;
let h: Harness;
const ENV = {
  NOTIFY_INTERVAL_MS: '20',
  NOTIFY_TIMEOUT_MS: '2000',
  NOTIFY_BACKOFF_BASE_MS: '40',
  NOTIFY_BACKOFF_MAX_MS: '80',
};
useWebhookWorld(
  (server) => ({ ...ENV, NOTIFY_WEBHOOKS: webhooksTo(server, 'slack', 'discord') }),
  (world) => ({ server, h } = world),
);

const deleteEvents = async (titles: string[]) => {
  for (const title of titles) {
    const event = await addEvent(h, { title });
    await h.request({ method: 'DELETE', url: `event/${event.id}` });
  }
};
const statuses = async () =>
  (await h.db.notification.findMany({ orderBy: { id: 'asc' } })).map((n) => n.status);

describe('the dispatcher running with the app', () => {
  it('starts with the app when NOTIFY_DISPATCH=on and stops on close', async () => {
    const app = await h.otherApp({ NOTIFY_DISPATCH: 'on' });
    await app.ready();
    await deleteEvents(['Quiz']);
    await eventually(async () => expect(await statuses()).toEqual(['delivered', 'delivered']));
    await app.close();
    await deleteEvents(['Test']);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await statuses()).toEqual(['delivered', 'delivered', 'pending', 'pending']);
  });

  it('loses nothing when stopped mid-delivery and started again', async () => {
    const gate = createGate();
    server.respond((request, n) =>
      n === 1 ? { status: 200, after: gate.opened } : { status: 200 },
    );
    await deleteEvents(['Quiz']);
    // A delivery may take a minute: a stop that ends well before proves it aborted the delivery.
    const patient = await h.otherApp({ NOTIFY_TIMEOUT_MS: '60000', NOTIFY_LEASE_MS: '120000' });
    const dispatcher = patient.workers.dispatcher;
    dispatcher.start();
    await eventually(() => expect(server.received).toHaveLength(2));
    const stopped = Date.now();
    await dispatcher.stop();
    expect(Date.now() - stopped).toBeLessThan(30_000);
    gate.open();
    expect(await h.db.notification.findMany()).toMatchObject([
      { status: 'pending', attempts: 0 },
      { status: 'pending', attempts: 0 },
    ]);
    dispatcher.start();
    try {
      await eventually(async () => expect(await statuses()).toEqual(['delivered', 'delivered']));
    } finally {
      await dispatcher.stop();
    }
    expect(await h.db.notification.findMany()).toMatchObject([{ attempts: 1 }, { attempts: 1 }]);
  });

  it('delivers each notification once per target with two replicas dispatching', async () => {
    server.respond(() => ({ status: 200, after: new Promise((r) => setTimeout(r, 15)) }));
    await deleteEvents(Array.from({ length: 20 }, (_, i) => `Event ${i}`));
    const replicas = [
      await h.otherApp({ NOTIFY_DISPATCH: 'on' }),
      await h.otherApp({ NOTIFY_DISPATCH: 'on' }),
    ];
    await Promise.all(replicas.map((app) => app.ready()));
    try {
      await eventually(async () =>
        expect(await h.db.notification.count({ where: { status: 'delivered' } })).toBe(40),
      );
    } finally {
      await Promise.all(replicas.map((app) => app.close()));
    }
    const deliveries = server.received.map((r) => `${r.path} ${r.headers['x-notification-id']}`);
    expect(deliveries).toHaveLength(40);
    expect(new Set(deliveries).size).toBe(40);
    expect(await h.db.notification.findMany({ where: { attempts: { not: 1 } } })).toEqual([]);
  });

  it('delivers once with two dispatchers claiming at the same moment', async () => {
    await deleteEvents(['A', 'B', 'C']);
    const other = await h.otherApp();
    const handled = await Promise.all([
      h.app.workers.dispatcher.runOnce(),
      other.workers.dispatcher.runOnce(),
    ]);
    expect(handled[0] + handled[1]).toBe(6);
    expect(server.received).toHaveLength(6);
    expect(await statuses()).toEqual(Array(6).fill('delivered'));
  });
});
