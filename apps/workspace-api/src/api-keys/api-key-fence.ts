import type { AuditRecorder, Database, Tx } from '../db';
import { cacheChannels, HEARTBEAT_MS } from './api-key-cache';
import { createApiKeysRepository } from './api-keys.repository';

export interface ApiKeyFenceOptions {
  database: Database;
  /** Longest wait for the caches' acknowledgements; must exceed a cache's heartbeat. */
  timeoutMs?: number;
  warn?: (message: string) => void;
}

export interface ApiKeyFence {
  /**
   * Runs `change` in a transaction and returns once every listening cache has dropped what it
   * changed; `audit` is told whether the transaction committed.
   */
  change<T>(change: (tx: Tx) => Promise<T>, options?: { audit?: AuditRecorder | null }): Promise<T>;
}

/**
 * Makes a change to API keys hold on every replica by the time it returns. The change's
 * transaction also notes which caches are listening (their backend pids); after the commit the
 * fence waits until each has acknowledged the transaction's notification (api-key-cache.ts). A
 * cache silent past the timeout has lost its connection: its heartbeat has noticed by then, and
 * it serves nothing from memory until it listens again, empty.
 */
export function createApiKeyFence(options: ApiKeyFenceOptions): ApiKeyFence {
  const channels = cacheChannels(options.database.schema);
  const timeoutMs = options.timeoutMs ?? 3 * HEARTBEAT_MS;
  const keys = createApiKeysRepository(options.database);

  return {
    async change(change, { audit } = {}) {
      const acked = new Map<string, Set<number>>();
      let wake: () => void = () => undefined;
      const session = options.database.listenConnection({
        applicationName: 'api-key-fence',
        onNotification: ({ processId, payload }) => {
          acked.set(payload, (acked.get(payload) ?? new Set()).add(processId));
          wake();
        },
      });
      await session.connect();
      try {
        await session.listen(channels.ack);
        const { result, mark } = await options.database.transaction(
          async (tx) => {
            const mark = await keys.listenersOf(tx, channels.applicationName);
            return { result: await change(tx), mark };
          },
          { audit },
        );
        const pending = () => mark.listeners.filter((pid) => !acked.get(mark.txid)?.has(pid));
        const deadline = Date.now() + timeoutMs;
        while (pending().length > 0 && Date.now() < deadline) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, deadline - Date.now()).unref();
          });
        }
        const silent = pending();
        if (silent.length > 0) {
          options.warn?.(
            `No acknowledgement from the API key caches of backends ${silent.join(', ')} within ${timeoutMs} ms`,
          );
        }
        return result;
      } finally {
        await session.close();
      }
    },
  };
}
