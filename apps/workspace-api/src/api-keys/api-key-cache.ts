import { LRUCache } from 'lru-cache';
import type { Database, ListenConnection } from '../db';
import type { ApiKeyRow } from './api-keys.repository';

/**
 * Verified API keys kept in memory, so that a request costs no query for its key. Safe only
 * because every change to a key reaches every replica before it matters:
 *
 * - a trigger on `api_key` (migration 20261130000000) NOTIFYs `<schema>.api_key_changed` with the
 *   key and the transaction id on every update, delete and truncate;
 * - each replica LISTENs on a dedicated connection, drops the key (or everything) and answers on
 *   `<schema>.api_key_ack`, which lets a revocation wait for every replica (see api-key-fence.ts);
 * - the cache is used only while that connection is live. When it fails, or misses a heartbeat,
 *   every request goes to the database again, and the cache starts empty once listening resumes
 *   (changes made meanwhile were never heard);
 * - a lookup that raced with a change is not remembered: `remember` takes the epoch read before
 *   the lookup, and every invalidation moves the epoch on.
 */
export interface ApiKeyCache {
  /** The remembered row for a key; always undefined while the invalidation channel is down. */
  get(key: string): ApiKeyRow | undefined;
  /** Read before looking a key up in the database; pass to `remember`. */
  epoch(): number;
  /** Keeps a verified key unless anything was invalidated since `epoch`, or the channel is down. */
  remember(apiKey: ApiKeyRow, epoch: number): void;
  isLive(): boolean;
  /** Connects and listens; resolves after the first attempt, successful or not (it retries). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface ApiKeyCacheOptions {
  database: Database;
  /** How often the listening connection proves it still works; also the longest a silent loss goes unnoticed. */
  heartbeatMs?: number;
  /** Wait before listening again after the connection is lost. */
  reconnectMs?: number;
  maxEntries?: number;
  log?: { info: (msg: string) => void; warn: (obj: object, msg: string) => void };
}

/** The channels and the application name a schema's caches use; shared with the fence. */
export function cacheChannels(schema: string) {
  return {
    changed: `${schema}.api_key_changed`,
    ack: `${schema}.api_key_ack`,
    applicationName: `api-key-cache:${schema}`,
  };
}

export const HEARTBEAT_MS = 1000;

export function createApiKeyCache(options: ApiKeyCacheOptions): ApiKeyCache {
  const { heartbeatMs = HEARTBEAT_MS, reconnectMs = 1000, maxEntries = 10_000, log } = options;
  const channels = cacheChannels(options.database.schema);
  // No time to live: a key stays until a change to it is heard, or the least used make room.
  const entries = new LRUCache<string, ApiKeyRow>({ max: maxEntries });
  let epoch = 0;
  let session: ListenConnection | null = null;
  let live = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  const invalidate = (key: string) => {
    epoch += 1;
    if (key === '*') entries.clear();
    else entries.delete(key);
  };

  const schedule = (fn: () => void, ms: number) => {
    if (timer) clearTimeout(timer);
    timer = closed ? null : setTimeout(fn, ms).unref();
  };

  function lost(current: ListenConnection, error?: Error) {
    if (session !== current) return;
    session = null;
    if (live) log?.warn({ err: error }, 'API key cache off: its invalidation channel was lost');
    live = false;
    invalidate('*');
    void current.close();
    schedule(() => void connect(), reconnectMs);
  }

  function heartbeat(current: ListenConnection) {
    schedule(() => {
      current.ping().then(
        () => heartbeat(current),
        (error: Error) => lost(current, error),
      );
    }, heartbeatMs);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    // A heartbeat that hangs is a lost connection: the query times out before the next beat.
    const current: ListenConnection = options.database.listenConnection({
      applicationName: channels.applicationName,
      queryTimeoutMs: heartbeatMs,
      onLost: (error) => lost(current, error),
      onNotification: ({ channel, payload }) => {
        if (channel !== channels.changed) return;
        const [key, txid] = payload.split(' ');
        invalidate(key);
        current.notify(channels.ack, txid ?? '').catch((error: Error) => lost(current, error));
      },
    });
    session = current;
    try {
      await current.connect();
      await current.listen(channels.changed);
    } catch (error) {
      lost(current, error as Error);
      return;
    }
    if (session !== current || closed) return;
    invalidate('*');
    live = true;
    log?.info('API key cache on: listening for key changes');
    heartbeat(current);
  }

  return {
    get: (key) => (live ? entries.get(key) : undefined),
    epoch: () => epoch,
    remember(apiKey, since) {
      if (!live || since !== epoch) return;
      entries.set(apiKey.key, apiKey);
    },
    isLive: () => live,
    start: () => connect(),
    async close() {
      closed = true;
      live = false;
      if (timer) clearTimeout(timer);
      const current = session;
      session = null;
      entries.clear();
      await current?.close();
    },
  };
}
