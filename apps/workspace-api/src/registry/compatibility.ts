/** One line of an entry's compatibility list, in schema 1.1's shape (1.0 entries are converted to it). */
export interface CompatibilityRow {
  version: string;
  image: string;
  uncompressed_size_mb: number | null;
  available_tags: string[];
}

/**
 * The form registries list compatibility in: `1.16.2` → `1.16.x`. Only the digits as written
 * are used, so `1.10.4` gives `1.10.x`, never anything a float would round it to.
 */
export function platformSeries(platformVersion: string): string {
  const match = /^([0-9]+)\.([0-9]+)(?:\.[0-9]+)?$/.exec(platformVersion);
  if (!match)
    throw new Error(`Platform version "${platformVersion}" is not <major>.<minor>.<patch>`);
  return `${match[1]}.${match[2]}.x`;
}

/** Exact string comparison: `1.10.x` never matches `1.1.x`, and `1.16.X` is not `1.16.x`. */
export function isCompatible(versions: readonly string[], series: string): boolean {
  return versions.includes(series);
}

/** The row for this platform, or undefined when the entry does not list it. */
export function compatibleRow(
  rows: readonly CompatibilityRow[],
  series: string,
): CompatibilityRow | undefined {
  return rows.find((row) => row.version === series);
}

/** What an install uses: the row for this platform, else (a forced install) the first listed. */
export function installRow(
  rows: readonly CompatibilityRow[],
  series: string,
): CompatibilityRow | undefined {
  return compatibleRow(rows, series) ?? rows[0];
}
