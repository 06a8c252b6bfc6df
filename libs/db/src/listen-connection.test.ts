import { Client } from 'pg';
import {
  openListenConnection,
  type Notification,
  type ListenConnection,
} from './listen-connection';

const url = () => process.env.TEST_DATABASE_URL as string;
// Channels and names of this process's own: other runs may share the server.
const applicationName = `listen-connection-test-${process.pid}`;

async function waitFor(check: () => boolean, limitMs = 30_000) {
  const deadline = Date.now() + limitMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

async function adminQuery(text: string, values: unknown[] = []) {
  const client = new Client({ connectionString: url() });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('a LISTEN connection', () => {
  const opened: ListenConnection[] = [];
  const open = (options: Parameters<typeof openListenConnection>[1]) => {
    const session = openListenConnection(url(), options);
    opened.push(session);
    return session;
  };

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((session) => session.close()));
  });

  it('hears what another session notifies on its channel, with the sender and a quoted name', async () => {
    const heard: Notification[] = [];
    const listener = open({ applicationName, onNotification: (n) => heard.push(n) });
    const sender = open({ applicationName: `${applicationName}-sender` });
    await Promise.all([listener.connect(), sender.connect()]);
    const channel = `schema."odd" channel ${process.pid}`;
    await listener.listen(channel);
    await sender.notify(`another channel ${process.pid}`, 'not heard');
    await sender.notify(channel, 'key-1 42');

    expect(await waitFor(() => heard.length > 0)).toBe(true);
    expect(heard).toEqual([
      { channel, payload: 'key-1 42', processId: expect.any(Number) as number },
    ]);
    const [{ pid }] = await adminQuery(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
      [`${applicationName}-sender`],
    );
    expect(heard[0].processId).toBe(pid);
  });

  it('runs statements sent together one at a time, in the order they were sent', async () => {
    // pg 8 queues a statement sent to a busy client, with a deprecation warning; pg 9 refuses
    // it. Only the sender sends during the burst: count its statements in flight.
    let inFlight = 0;
    let busiest = 0;
    const query = Client.prototype.query as (...args: unknown[]) => Promise<unknown>;
    const watched = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
      this: Client,
      ...args: unknown[]
    ) {
      busiest = Math.max(busiest, ++inFlight);
      return query.apply(this, args).finally(() => inFlight--);
    } as typeof Client.prototype.query);
    const heard: string[] = [];
    const listener = open({ applicationName, onNotification: (n) => heard.push(n.payload) });
    const sender = open({ applicationName: `${applicationName}-sender` });
    try {
      await Promise.all([listener.connect(), sender.connect()]);
      const channel = `burst ${process.pid}`;
      await listener.listen(channel);
      const payloads = Array.from({ length: 20 }, (_, i) => `change ${i}`);
      await Promise.all([
        ...payloads.map((payload) => sender.notify(channel, payload)),
        sender.ping(),
      ]);

      expect(await waitFor(() => heard.length === payloads.length)).toBe(true);
      expect(heard).toEqual(payloads);
      expect(busiest).toBe(1);
    } finally {
      watched.mockRestore();
    }
  });

  it('reports a lost connection once, and answers no ping after it', async () => {
    const lost: (Error | undefined)[] = [];
    const session = open({ applicationName, onLost: (error) => lost.push(error) });
    await session.connect();
    await session.ping();
    await adminQuery(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );

    expect(await waitFor(() => lost.length > 0)).toBe(true);
    await expect(session.ping()).rejects.toThrow();
    expect(lost).toHaveLength(1);
  });

  it('reports nothing after it is closed', async () => {
    const reports: string[] = [];
    const session = open({
      applicationName,
      onLost: () => reports.push('lost'),
      onNotification: () => reports.push('notification'),
    });
    await session.connect();
    await session.listen(`closed channel ${process.pid}`);
    await session.close();
    await adminQuery('SELECT pg_notify($1, $2)', [`closed channel ${process.pid}`, 'late']);
    await session.ping().catch(() => undefined);

    expect(reports).toEqual([]);
  });
});
