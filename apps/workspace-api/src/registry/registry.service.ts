import { createOutboundFetch, createOutboundPolicy } from '@platform/outbound';
import { toUuid } from '@platform/schemas';
import type { Config } from '../config';
import {
  isUniqueViolation,
  recordedChange,
  recordedRemoval,
  recordedUpdate,
  type AuditRecorder,
  type Tx,
} from '../db';
import {
  RegistryAlreadyAddedError,
  RegistryNotFoundError,
  RegistryUrlInvalidError,
} from '../errors';
import type { EntryDiff } from './registry-diff';
import type { FetchProgress } from './registry-fetch';
import { loadRegistry, type LoadedRegistry } from './registry-load';
import { toRegistryResponse } from './registry-response';
import type { RegistryRepository, RegistryRow } from './registry.repository';
import { parseRegistrySource, type RegistrySource } from './registry-source';

export type RegistryConfig = Pick<
  Config,
  | 'PLATFORM_VERSION'
  | 'REGISTRY_FETCH_TIMEOUT_MS'
  | 'REGISTRY_MAX_BYTES'
  | 'REGISTRY_ALLOW_LOCAL_PATHS'
  | 'OUTBOUND_ALLOW_PRIVATE'
  | 'OUTBOUND_ALLOWLIST'
  | 'OUTBOUND_MAX_REDIRECTS'
>;
export type ProgressListener = (progress: FetchProgress) => void;

function registryFields(loaded: LoadedRegistry) {
  return {
    name: loaded.meta.name,
    description: loaded.meta.description,
    icon: loaded.meta.icon,
    listUrl: loaded.meta.list_url,
    contactUrl: loaded.meta.contact_url,
    schemaVersion: loaded.schemaVersion,
    invalidEntries: loaded.invalid,
    fetchedAt: new Date(),
  };
}

export function createRegistryService({
  registries,
  config,
}: {
  registries: RegistryRepository;
  config: RegistryConfig;
}) {
  // add_registry makes the service fetch a URL a client chose: only public addresses by default.
  const fetch = createOutboundFetch({
    policy: createOutboundPolicy({
      allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
      allowlist: config.OUTBOUND_ALLOWLIST,
    }),
    maxRedirects: config.OUTBOUND_MAX_REDIRECTS,
  });
  const fetchOptions = (onProgress?: ProgressListener) => ({
    fetch,
    timeoutMs: config.REGISTRY_FETCH_TIMEOUT_MS,
    maxBytes: config.REGISTRY_MAX_BYTES,
    onProgress,
  });

  function sourceOf(url: string): RegistrySource {
    const source = parseRegistrySource(url, { allowLocal: config.REGISTRY_ALLOW_LOCAL_PATHS });
    if ('problem' in source) throw new RegistryUrlInvalidError(source.problem);
    return source;
  }

  /** The registry as get_registries answers it, read in `tx`: its audit snapshot. */
  const snapshot = (id: string) => async (tx: Tx) => {
    const registry = await registries.find(id, tx);
    return registry && toRegistryResponse(registry);
  };

  async function find(registryId: string): Promise<RegistryRow> {
    const registry = await registries.find(toUuid(registryId));
    if (!registry) throw new RegistryNotFoundError(`registry_id ${registryId}`);
    return registry;
  }

  return {
    find,

    list: (): Promise<RegistryRow[]> => registries.list(),

    /**
     * Fetches, validates and stores a registry; its valid entries load even when others are
     * broken. With `audit` (here and below), the API's event is written in the change's
     * transaction; the fetch comes before it.
     */
    async add(
      url: string,
      onProgress?: ProgressListener,
      audit?: AuditRecorder | null,
    ): Promise<RegistryRow> {
      const source = sourceOf(url);
      // Saves a fetch in the common case; the unique index still decides races.
      if (await registries.hasUrl(source.url)) {
        throw new RegistryAlreadyAddedError(source.url);
      }
      const loaded = await loadRegistry(source, fetchOptions(onProgress));
      return recordedChange(registries.transaction, audit, {
        change: (tx) => registries.create(source.url, registryFields(loaded), loaded.entries, tx),
        after: (_tx, registry) => toRegistryResponse(registry),
      }).catch((error: unknown) => {
        throw isUniqueViolation(error) ? new RegistryAlreadyAddedError(source.url) : error;
      });
    },

    /** Fetches again and replaces the stored entries in one transaction; installed workspaces are untouched. */
    async refresh(
      registryId: string,
      onProgress?: ProgressListener,
      audit?: AuditRecorder | null,
    ): Promise<EntryDiff & { registry: RegistryRow }> {
      const { id, url } = await find(registryId);
      const loaded = await loadRegistry(sourceOf(url), fetchOptions(onProgress));
      return recordedUpdate(registries.transaction, audit, snapshot(id), (tx) =>
        registries.refresh(tx, id, registryFields(loaded), loaded.entries),
      );
    },

    /** Its entries go with it; workspaces installed from it stay, with their origin cleared. */
    async remove(registryId: string, audit?: AuditRecorder | null): Promise<void> {
      const id = toUuid(registryId);
      await recordedRemoval(
        registries.transaction,
        audit,
        snapshot(id),
        (tx) => registries.remove(id, tx),
        () => new RegistryNotFoundError(`registry_id ${registryId}`),
      );
    },
  };
}
export type RegistryService = ReturnType<typeof createRegistryService>;
