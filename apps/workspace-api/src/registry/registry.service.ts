import { isUniqueViolation } from '@platform/errors';
import { createOutboundFetch, createOutboundPolicy } from '@platform/outbound';
import { toUuid } from '@platform/schemas';
import type { Config } from '../config';
import type { Db } from '../db';
import {
  RegistryAlreadyAddedError,
  RegistryNotFoundError,
  RegistryUrlInvalidError,
} from '../errors';
import type { Prisma } from '../generated/prisma/client';
import { diffEntries, type EntryDiff } from './registry-diff';
import type { FetchProgress } from './registry-fetch';
import type { WorkspaceEntry } from './registry-list';
import { loadRegistry, type LoadedRegistry } from './registry-load';
import type { RegistryWithCount } from './registry-response';
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

const WITH_COUNT = { _count: { select: { entries: true } } } satisfies Prisma.RegistryInclude;

const asJson = (value: unknown) => value as Prisma.InputJsonValue;
const entryRow = (entry: WorkspaceEntry) => ({ name: entry.name, data: asJson(entry) });

function registryFields(loaded: LoadedRegistry) {
  return {
    name: loaded.meta.name,
    description: loaded.meta.description,
    icon: loaded.meta.icon,
    listUrl: loaded.meta.list_url,
    contactUrl: loaded.meta.contact_url,
    schemaVersion: loaded.schemaVersion,
    invalidEntries: asJson(loaded.invalid),
    fetchedAt: new Date(),
  };
}

export function createRegistryService({ db, config }: { db: Db; config: RegistryConfig }) {
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

  async function find(registryId: string): Promise<RegistryWithCount> {
    const registry = await db.registry.findUnique({
      where: { id: toUuid(registryId) },
      include: WITH_COUNT,
    });
    if (!registry) throw new RegistryNotFoundError(`registry_id ${registryId}`);
    return registry;
  }

  return {
    find,

    list: (): Promise<RegistryWithCount[]> =>
      db.registry.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], include: WITH_COUNT }),

    /** Fetches, validates and stores a registry; its valid entries load even when others are broken. */
    async add(url: string, onProgress?: ProgressListener): Promise<RegistryWithCount> {
      const source = sourceOf(url);
      // Saves a fetch in the common case; the unique index still decides races.
      if (await db.registry.findUnique({ where: { url: source.url }, select: { id: true } })) {
        throw new RegistryAlreadyAddedError(source.url);
      }
      const loaded = await loadRegistry(source, fetchOptions(onProgress));
      return db.registry
        .create({
          data: {
            url: source.url,
            ...registryFields(loaded),
            entries: { createMany: { data: loaded.entries.map(entryRow) } },
          },
          include: WITH_COUNT,
        })
        .catch((error: unknown) => {
          throw isUniqueViolation(error) ? new RegistryAlreadyAddedError(source.url) : error;
        });
    },

    /** Fetches again and replaces the stored entries in one transaction; installed workspaces are untouched. */
    async refresh(
      registryId: string,
      onProgress?: ProgressListener,
    ): Promise<EntryDiff & { registry: RegistryWithCount }> {
      const { id, url } = await find(registryId);
      const loaded = await loadRegistry(sourceOf(url), fetchOptions(onProgress));
      return db.$transaction(
        async (tx) => {
          const before = await tx.registryEntry.findMany({
            where: { registryId: id },
            select: { name: true, data: true },
          });
          const diff = diffEntries(before, loaded.entries);
          const byName = new Map(loaded.entries.map((entry) => [entry.name, entry]));
          await tx.registryEntry.deleteMany({
            where: { registryId: id, name: { in: diff.removed } },
          });
          const added = diff.added.map((name) => ({
            registryId: id,
            ...entryRow(byName.get(name) as WorkspaceEntry),
          }));
          await tx.registryEntry.createMany({ data: added });
          for (const name of diff.changed) {
            await tx.registryEntry.update({
              where: { registryId_name: { registryId: id, name } },
              data: { data: asJson(byName.get(name)) },
            });
          }
          const registry = await tx.registry.update({
            where: { id },
            data: registryFields(loaded),
            include: WITH_COUNT,
          });
          return { registry, ...diff };
        },
        // Large registries change hundreds of rows; Prisma's 5 s default is too tight for that.
        { timeout: 30_000 },
      );
    },

    /** Its entries go with it; workspaces installed from it stay, with their origin cleared. */
    async remove(registryId: string): Promise<void> {
      const { count } = await db.registry.deleteMany({ where: { id: toUuid(registryId) } });
      if (count === 0) throw new RegistryNotFoundError(`registry_id ${registryId}`);
    },
  };
}
export type RegistryService = ReturnType<typeof createRegistryService>;
