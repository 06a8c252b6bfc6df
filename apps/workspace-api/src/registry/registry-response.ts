import { toTimestamp, toWireId } from '@platform/schemas';
import { installRow, isCompatible } from './compatibility';
import { screenEntryConfig } from './image-from-entry';
import type { InvalidEntry, WorkspaceEntry } from './registry-list';
import type { RegistryRow } from './registry.repository';
import type { RegistryResponse, RegistryWorkspaceResponse } from './registry.schemas';

export function toRegistryResponse(registry: RegistryRow): RegistryResponse {
  return {
    registry_id: toWireId(registry.id),
    registry_url: registry.url,
    name: registry.name,
    description: registry.description,
    icon: registry.icon,
    list_url: registry.listUrl,
    contact_url: registry.contactUrl,
    schema_version: registry.schemaVersion,
    workspace_count: registry._count.entries,
    invalid_workspaces: registry.invalidEntries as unknown as InvalidEntry[],
    last_fetched: toTimestamp(registry.fetchedAt),
    created: toTimestamp(registry.createdAt),
  };
}

export function toRegistryWorkspaceResponse(
  entry: WorkspaceEntry,
  series: string,
  installed: boolean,
): RegistryWorkspaceResponse {
  const versions = entry.compatibility.map((row) => row.version);
  const row = installRow(entry.compatibility, series);
  return {
    ...entry,
    compatibility: versions,
    image: row?.image ?? entry.name,
    uncompressed_size_mb: row?.uncompressed_size_mb ?? null,
    available_tags: row?.available_tags ?? [],
    compatible: isCompatible(versions, series),
    installed,
    ignored_config: screenEntryConfig(entry).ignored,
  };
}
