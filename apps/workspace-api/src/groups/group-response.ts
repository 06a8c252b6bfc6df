import { toTimestamp, toWireId } from '@platform/schemas';
import type { Tx } from '../db';
import type { GroupRow, GroupsRepository } from './groups.repository';
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
    allow_kasm_clipboard_up: group.allowClipboardUp,
    allow_kasm_clipboard_down: group.allowClipboardDown,
    shared_session_full_control: group.sharedSessionFullControl,
    allow_kasm_uploads: group.allowUploads,
    allow_kasm_downloads: group.allowDownloads,
    record_sessions: group.recordSessions,
    created: toTimestamp(group.createdAt),
  };
}

/**
 * A group as its audit events keep it: its wire form with its Allowed Workspaces (by id and
 * name), which add_images_group and remove_images_group change.
 */
export function toGroupSnapshot(group: GroupRow, images: readonly { id: string; name: string }[]) {
  return {
    ...toGroupResponse(group),
    images: images.map((image) => ({ image_id: toWireId(image.id), name: image.name })),
  };
}

/** Reads a group as its audit events keep it (toGroupSnapshot) in `tx`; null for none. */
export const groupSnapshot =
  (groups: Pick<GroupsRepository, 'withImages'>) => async (tx: Tx, id: string) => {
    const group = await groups.withImages(tx, id);
    return group && toGroupSnapshot(group, group.images);
  };
