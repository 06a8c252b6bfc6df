import type { FastifyBaseLogger } from 'fastify';
import { createOutboundFetch, createOutboundPolicy } from '@platform/outbound';
import type { Config } from '../config';
import type { Database } from '../db';
import { createIconsRepository } from './icons.repository';
import { createIconsService, type IconsDeps } from './icons.service';

/** The icons service, fetching from registries under the same outbound policy as the registries themselves. */
export function createIconsFeature(deps: {
  config: Config;
  database: Database;
  data: Pick<IconsDeps, 'images' | 'registries'>;
  log: FastifyBaseLogger;
}) {
  const { config } = deps;
  return createIconsService({
    icons: createIconsRepository(deps.database),
    images: deps.data.images,
    registries: deps.data.registries,
    fetch: createOutboundFetch({
      policy: createOutboundPolicy({
        allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
        allowlist: config.OUTBOUND_ALLOWLIST,
      }),
      maxRedirects: config.OUTBOUND_MAX_REDIRECTS,
    }),
    timeoutMs: config.REGISTRY_FETCH_TIMEOUT_MS,
    log: deps.log,
  });
}
