import type { TargetedMapping, TargetType } from '../file-mappings';

export interface MappingSource {
  type: TargetType;
  id: string;
  /** The workspace's image name, the group's name or the username. */
  name: string;
}

export type MergedMapping = TargetedMapping & { source: MappingSource };

export interface MergeInput {
  image: { id: string; name: string };
  /** The user's groups; their order here does not matter. */
  groups: readonly { id: string; name: string; priority: number }[];
  user: { id: string; username: string };
  /** May hold mappings of other targets too; only the ones of this image, these groups and this user count. */
  mappings: readonly TargetedMapping[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The file mappings a session gets: the workspace's, then each group's by priority (lower first;
 * ties by name), then the user's. The first mapping for a destination wins; later ones to the same
 * destination are dropped. Within one source, mappings come by destination.
 */
export function mergeFileMappings({ image, groups, user, mappings }: MergeInput): MergedMapping[] {
  const sources: MappingSource[] = [
    { type: 'image', id: image.id, name: image.name },
    ...[...groups]
      .sort((a, b) => a.priority - b.priority || byText(a.name, b.name) || byText(a.id, b.id))
      .map((g) => ({ type: 'group' as const, id: g.id, name: g.name })),
    { type: 'user', id: user.id, name: user.username },
  ];
  const taken = new Set<string>();
  const merged: MergedMapping[] = [];
  for (const source of sources) {
    const own = mappings
      .filter((m) => m.target.type === source.type && m.target.id === source.id)
      .sort((a, b) => byText(a.destination, b.destination));
    for (const mapping of own) {
      if (taken.has(mapping.destination)) continue;
      taken.add(mapping.destination);
      merged.push({ ...mapping, source });
    }
  }
  return merged;
}
