import { Client } from 'pg';

export interface Notification {
  channel: string;
  payload: string;
  /** The backend that sent it. */
  processId: number;
}

export interface ListenConnectionOptions {
  /** Names the connection in `pg_stat_activity`, where others can find who listens. */
  applicationName: string;
  /** A statement that takes longer fails, and the connection is lost: how a hung connection shows. */
  queryTimeoutMs?: number;
  onNotification?: (notification: Notification) => void;
  /** The connection failed or ended without `close`; called at most once. */
  onLost?: (error?: Error) => void;
}

/**
 * A connection of its own for LISTEN and NOTIFY: a listener needs one connection for as long as it
 * listens, which the pool cannot lend. Nothing is reported after `close`.
 */
export interface ListenConnection {
  connect(): Promise<void>;
  listen(channel: string): Promise<void>;
  notify(channel: string, payload: string): Promise<void>;
  /** Proves the connection still answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const ignore = () => undefined;

/** A channel name as a quoted identifier (LISTEN takes no parameter). */
const quoted = (channel: string) => `"${channel.replaceAll('"', '""')}"`;

export function openListenConnection(
  connectionString: string,
  options: ListenConnectionOptions,
): ListenConnection {
  const client = new Client({
    connectionString,
    application_name: options.applicationName,
    query_timeout: options.queryTimeoutMs,
    keepAlive: true,
  });
  let open = true;
  const lose = (error?: Error) => {
    if (!open) return;
    open = false;
    options.onLost?.(error);
  };
  client.on('error', lose);
  client.on('end', () => lose());
  client.on('notification', ({ channel, payload = '', processId }) => {
    if (open) options.onNotification?.({ channel, payload, processId });
  });
  // One statement at a time, in the order sent: a listener's acknowledgements and heartbeats
  // come unbidden, and a client does not take a statement while it runs another (pg 9 refuses).
  let last: Promise<unknown> = Promise.resolve();
  const run = (text: string, values?: unknown[]): Promise<void> => {
    const next = last.then(() => client.query(text, values));
    last = next.catch(ignore);
    return next.then(ignore);
  };
  return {
    connect: () => client.connect(),
    listen: (channel) => run(`LISTEN ${quoted(channel)}`),
    notify: (channel, payload) => run('SELECT pg_notify($1, $2)', [channel, payload]),
    ping: () => run('SELECT 1'),
    async close() {
      open = false;
      await client.end().catch(ignore);
    },
  };
}
