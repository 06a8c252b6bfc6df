import { toTimestamp, toWireId } from '@platform/schemas';
import type { GroupRow } from './groups.repository';
import type { GroupResponse } from './groups.schemas';

export function toGroupResponse(group: GroupRow): GroupResponse {
  return {
    group_id: toWireId(group.id),
    name: group.name,
    description: group.description,
    priority: group.priority,
    max_kasms_per_user: group.maxKasmsPerUser,
    is_system: group.isSystem,
    permissions: group.permissions,
    created: toTimestamp(group.createdAt),
  };
}
