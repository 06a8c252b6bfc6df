import { readFile, stat } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { OutboundFetch } from '@platform/outbound';
import { toUuid } from '@platform/schemas';
import type { ImagesRepository } from '../images';
import type { RegistryRepository } from '../registry';
import { iconSource, iconType } from './icon-source';
import type { IconsRepository } from './icons.repository';

/** Icons are small; a registry serving more than this for one is not trusted with it. */
export const ICON_MAX_BYTES = 512 * 1024;
const RETRY_MS = 3_600_000;
const BATCH = 20;

interface Fetched {
  contentType: string;
  data: Uint8Array;
}

export interface IconsDeps {
  icons: IconsRepository;
  /** The workspaces that name an icon, and their registries. */
  images: Pick<ImagesRepository, 'iconSources'>;
  registries: Pick<RegistryRepository, 'sourcesOf'>;
  /** The registry's guarded fetch: the outbound policy applies to icons too. */
  fetch: OutboundFetch;
  timeoutMs: number;
  log: FastifyBaseLogger;
}

/**
 * Installed workspaces' icons, fetched from their registry in the background and served from
 * the database: the page itself never reaches out, and a registry going away keeps its icons.
 */
export function createIconsService(deps: IconsDeps) {
  const { icons, fetch, timeoutMs, log } = deps;

  async function fetchHttp(url: string): Promise<Fetched> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await fetch(url, {
        signal: controller.signal,
        headers: { accept: 'image/*' },
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`${url} answered HTTP ${response.status}`);
      }
      const contentType = iconType(url, response.headers.get('content-type'));
      if (!contentType) {
        await response.body?.cancel();
        throw new Error(`${url} is not a PNG, SVG, JPEG, GIF or WebP image`);
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      const reader = response.body?.getReader();
      for (let c = await reader?.read(); c && !c.done; c = await reader?.read()) {
        size += c.value.byteLength;
        if (size > ICON_MAX_BYTES) {
          controller.abort();
          throw new Error(`${url} is larger than ${ICON_MAX_BYTES} bytes`);
        }
        chunks.push(c.value);
      }
      return { contentType, data: Buffer.concat(chunks) };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Installed workspaces from a registry whose icon is not stored yet, or whose last fetch failed
   * before `retryBefore`, with their registry's address.
   */
  async function due(retryBefore: Date, limit: number) {
    const sources = await deps.images.iconSources();
    const settled = await icons.settled(
      sources.map((image) => image.id),
      retryBefore,
    );
    const images = sources.filter((image) => !settled.has(image.id)).slice(0, limit);
    const registries = await deps.registries.sourcesOf([
      ...new Set(images.map((image) => image.registryId)),
    ]);
    return images.map((image) => ({ ...image, registry: registries.get(image.registryId) }));
  }

  async function fetchLocal(file: string): Promise<Fetched> {
    const contentType = iconType(file, null);
    if (!contentType) throw new Error(`${file} is not a PNG, SVG, JPEG, GIF or WebP image`);
    const info = await stat(file);
    if (info.size > ICON_MAX_BYTES)
      throw new Error(`${file} is larger than ${ICON_MAX_BYTES} bytes`);
    return { contentType, data: await readFile(file) };
  }

  return {
    /** The stored icon, or null (never fetched, or the registry had none): the page falls back. */
    async find(imageId: string) {
      const row = await icons.find(toUuid(imageId));
      return row?.data ? { contentType: row.contentType, data: Buffer.from(row.data) } : null;
    },

    /** Fetches the icons not stored yet (failed ones again after an hour); one background round. */
    async fillMissing(): Promise<void> {
      for (const image of await due(new Date(Date.now() - RETRY_MS), BATCH)) {
        if (!image.registry) continue;
        const source = iconSource(image.registry.url, image.registry.schemaVersion, image.imageSrc);
        const sourceUrl = 'problem' in source ? image.imageSrc : source.url;
        try {
          if ('problem' in source) throw new Error(source.problem);
          const icon =
            source.kind === 'http' ? await fetchHttp(source.url) : await fetchLocal(source.file);
          await icons.save(image.id, { sourceUrl, ...icon, problem: '' });
        } catch (error) {
          const problem = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
          log.info({ imageId: image.id, sourceUrl, problem }, 'workspace icon not fetched');
          await icons.save(image.id, { sourceUrl, contentType: '', data: null, problem });
        }
      }
    },
  };
}
export type IconsService = ReturnType<typeof createIconsService>;
