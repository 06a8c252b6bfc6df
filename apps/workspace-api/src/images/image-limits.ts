/**
 * The resources a workspace may ask for, shared by update_image and the registry loader so that
 * a registry can never store a value update_image would refuse (or one that overflows a column).
 */

/** Docker's own floor: `--cpus` below 0.01 is refused by the engine. */
export const CORES_MIN = 0.01;
export const CORES_MAX = 1024;

/** Registries give memory in MB; Kasm's API (and this one) in bytes, with Kasm's decimal megabyte. */
export const BYTES_PER_MB = 1_000_000;
export const MEMORY_MIN_BYTES = BYTES_PER_MB;
/** 1 PB: far above any machine, far below the 2^53 where a JSON number stops being exact. */
export const MEMORY_MAX_BYTES = 1_000_000_000_000_000;
export const MEMORY_MIN_MB = MEMORY_MIN_BYTES / BYTES_PER_MB;
export const MEMORY_MAX_MB = MEMORY_MAX_BYTES / BYTES_PER_MB;

/** 10 TB uncompressed: generous, and within the 32-bit column that stores it. */
export const SIZE_MAX_MB = 10_000_000;
