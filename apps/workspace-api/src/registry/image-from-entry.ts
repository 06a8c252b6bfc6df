import type { Prisma } from '../generated/prisma/client';
import { installRow } from './compatibility';
import type { WorkspaceEntry } from './registry-list';

/** What Kasm gives a workspace whose registry entry names no resources. */
export const DEFAULT_CORES = 2;
export const DEFAULT_MEMORY_MB = 2768;
/** Registries give memory in MB; Kasm's API (and this one) in bytes, with Kasm's decimal megabyte. */
const BYTES_PER_MB = 1_000_000;

/**
 * The installed workspace made from a registry entry: its container image is the one listed for
 * this platform (or, for a forced install, the first listed), and it remembers where it came from.
 */
export function imageFromEntry(
  entry: WorkspaceEntry,
  { registryId, series }: { registryId: string; series: string },
): Prisma.ImageUncheckedCreateInput {
  const row = installRow(entry.compatibility, series);
  const size = row?.uncompressed_size_mb;
  return {
    name: row?.image ?? entry.name,
    friendlyName: entry.friendly_name,
    description: entry.description,
    imageSrc: entry.image_src,
    dockerRegistry: entry.docker_registry,
    runConfig: entry.run_config as Prisma.InputJsonObject,
    execConfig: entry.exec_config as Prisma.InputJsonObject,
    volumeMappings: (entry.volume_mappings ?? {}) as Prisma.InputJsonObject,
    architecture: entry.architecture,
    categories: entry.categories,
    uncompressedSizeMb: size === null || size === undefined ? null : Math.round(size),
    cores: entry.cores ?? DEFAULT_CORES,
    memory: BigInt(Math.round((entry.memory ?? DEFAULT_MEMORY_MB) * BYTES_PER_MB)),
    gpuCount: entry.gpu_count ?? 0,
    cpuAllocationMethod: entry.cpu_allocation_method ?? 'Inherit',
    notes: entry.notes ?? '',
    registryId,
    registryEntryName: entry.name,
  };
}
