import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db';
import { createApiKeyCache, type ApiKeyCache } from './api-key-cache';
import { createApiKeyFence } from './api-key-fence';

/**
 * A server's API key cache and revocation fence, tied to the app's lifecycle: the cache starts
 * listening when the app is ready and closes with it. `override` replaces the cache that
 * API_KEY_CACHE asks for (null: none).
 */
export function serverKeyCaching(
  app: FastifyInstance,
  config: Config,
  database: Database,
  override?: ApiKeyCache | null,
) {
  const log = app.log.child({ component: 'api-key-cache' });
  const cache =
    override !== undefined
      ? override
      : config.API_KEY_CACHE === 'on'
        ? createApiKeyCache({
            database,
            log: { info: (msg) => log.info(msg), warn: (obj, msg) => log.warn(obj, msg) },
          })
        : null;
  if (cache) {
    app.addHook('onReady', () => cache.start());
    app.addHook('onClose', () => cache.close());
  }
  return {
    cache: cache ?? undefined,
    fence: createApiKeyFence({ database, warn: (msg) => log.warn(msg) }),
  };
}
