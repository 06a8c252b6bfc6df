import {
  allowlistConfig,
  applyAllowances,
  type ConfigNote,
  NO_ALLOWANCES,
  REASONS,
  type WorkspaceConfig,
} from '../domain';
import {
  BYTES_PER_MB,
  CORES_MAX,
  CORES_MIN,
  MEMORY_MAX_MB,
  MEMORY_MIN_MB,
  SIZE_MAX_MB,
  type ImageFields,
} from '../images';
import { installRow } from './compatibility';
import type { WorkspaceEntry } from './registry-list';

/** What Kasm gives a workspace whose registry entry names no resources. */
export const DEFAULT_CORES = 2;
export const DEFAULT_MEMORY_MB = 2768;

const outside = (value: number | null | undefined, min: number, max: number) =>
  value !== null && value !== undefined && !(value >= min && value <= max);

/**
 * What keeps an entry from being installed. The loader refuses such entries; this catches rows
 * stored before it did, so that an install answers a clear 422 instead of overflowing a column.
 */
export function entryResourceProblems(entry: WorkspaceEntry, series: string): string[] {
  const problems: string[] = [];
  if (outside(entry.cores, CORES_MIN, CORES_MAX))
    problems.push(`cores must be between ${CORES_MIN} and ${CORES_MAX}`);
  if (outside(entry.memory, MEMORY_MIN_MB, MEMORY_MAX_MB))
    problems.push(`memory must be between ${MEMORY_MIN_MB} and ${MEMORY_MAX_MB} MB`);
  if (outside(installRow(entry.compatibility, series)?.uncompressed_size_mb, 0, SIZE_MAX_MB))
    problems.push(`uncompressed_size_mb must be between 0 and ${SIZE_MAX_MB}`);
  return problems;
}

/**
 * The config an install keeps of an entry, and each key the workspace will not honour, with why.
 * Keys outside the allowlist and host paths (volume_mappings) are dropped rather than refusing
 * the entry: they could not reach a container anyway. Root, privileged and plain-HTTP values are
 * kept but withheld, until an administrator allows them on the workspace.
 */
export function screenEntryConfig(entry: WorkspaceEntry): WorkspaceConfig & {
  ignored: ConfigNote[];
} {
  const { runConfig, execConfig, dropped } = allowlistConfig({
    runConfig: entry.run_config,
    execConfig: entry.exec_config,
  });
  const { withheld } = applyAllowances({ runConfig, execConfig }, NO_ALLOWANCES);
  const mappings = Object.keys(entry.volume_mappings ?? {}).map((path) => ({
    key: `volume_mappings.${path}`,
    reason: REASONS.volumeMapping,
  }));
  return { runConfig, execConfig, ignored: [...dropped, ...withheld, ...mappings] };
}

/**
 * The installed workspace made from a registry entry: its container image is the one listed for
 * this platform (or, for a forced install, the first listed), and it remembers where it came from.
 */
export function imageFromEntry(
  entry: WorkspaceEntry,
  { registryId, series }: { registryId: string; series: string },
): ImageFields {
  const row = installRow(entry.compatibility, series);
  const size = row?.uncompressed_size_mb;
  const { runConfig, execConfig } = screenEntryConfig(entry);
  return {
    name: row?.image ?? entry.name,
    friendlyName: entry.friendly_name,
    description: entry.description,
    imageSrc: entry.image_src,
    dockerRegistry: entry.docker_registry,
    runConfig,
    execConfig,
    volumeMappings: {},
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
