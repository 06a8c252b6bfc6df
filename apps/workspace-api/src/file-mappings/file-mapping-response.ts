import { toTimestamp, toWireId } from '@platform/schemas';
import type { FileMappingRow } from './file-mappings.repository';
import type { FileMappingResponse } from './file-mappings.schemas';
import { contentBytes } from './mapping-target';

const wireOrNull = (id: string | null) => (id ? toWireId(id) : null);

export function toFileMappingResponse(mapping: FileMappingRow): FileMappingResponse {
  return {
    file_mapping_id: toWireId(mapping.id),
    image_id: wireOrNull(mapping.imageId),
    group_id: wireOrNull(mapping.groupId),
    user_id: wireOrNull(mapping.userId),
    name: mapping.name,
    description: mapping.description,
    destination: mapping.destination,
    executable: mapping.executable,
    content: mapping.content,
    size: contentBytes(mapping.content),
    created: toTimestamp(mapping.createdAt),
    updated: toTimestamp(mapping.updatedAt),
  };
}
