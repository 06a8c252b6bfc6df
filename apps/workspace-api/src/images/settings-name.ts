/**
 * Settings files name installed workspaces by a settings name: the image name for the first
 * workspace of that image, `<name> (2)`, `<name> (3)`, ... for later copies (one entry installed
 * from two registries). It is chosen once, at install, and never changes afterwards.
 */
export function firstFreeSettingsName(name: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? name : `${name} (${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}
