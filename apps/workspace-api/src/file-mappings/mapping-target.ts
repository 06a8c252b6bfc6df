import type { FieldProblem } from '@platform/errors';
import { MAX_CONTENT_BYTES, type TargetIds } from './file-mappings.schemas';

export type TargetType = 'image' | 'group' | 'user';
export const TARGET_TYPES: readonly TargetType[] = ['image', 'group', 'user'];
/** What a target is called in messages and in the settings file. */
export const TARGET_NOUNS: Record<TargetType, string> = {
  image: 'workspace',
  group: 'group',
  user: 'user',
};

export interface MappingTarget {
  type: TargetType;
  id: string;
}

/** A stored mapping with its target: what a launch merges and what the settings file compares. */
export interface TargetedMapping {
  id: string;
  target: MappingTarget;
  name: string;
  description: string;
  destination: string;
  executable: boolean;
  content: string;
}

/** The one target named by image_id, group_id or user_id; `required` false allows none. */
export function pickTarget(ids: TargetIds, required: boolean): MappingTarget | null | FieldProblem {
  const given = TARGET_TYPES.filter((type) => ids[`${type}_id`] !== undefined);
  if (given.length === 1) return { type: given[0], id: ids[`${given[0]}_id`] as string };
  if (given.length === 0 && !required) return null;
  return {
    field: 'target_file_mapping',
    message: `must have ${required ? 'exactly' : 'at most'} one of image_id, group_id, user_id`,
  };
}

export const contentBytes = (content: string) => Buffer.byteLength(content, 'utf8');

/** JSON Schema counts characters; the limit is on bytes, which a multi-byte character can exceed. */
export function contentProblem(content: string | undefined): string | null {
  if (content === undefined) return null;
  const size = contentBytes(content);
  return size > MAX_CONTENT_BYTES
    ? `is ${size} bytes in UTF-8; at most ${MAX_CONTENT_BYTES} (5 MiB) are allowed`
    : null;
}

/** Row columns for a target: the chosen one set, the others null. */
export function targetColumns(target: MappingTarget): {
  imageId: string | null;
  groupId: string | null;
  userId: string | null;
} {
  return {
    imageId: target.type === 'image' ? target.id : null,
    groupId: target.type === 'group' ? target.id : null,
    userId: target.type === 'user' ? target.id : null,
  };
}

export function rowTarget(row: {
  imageId: string | null;
  groupId: string | null;
  userId: string | null;
}): MappingTarget {
  if (row.imageId) return { type: 'image', id: row.imageId };
  if (row.groupId) return { type: 'group', id: row.groupId };
  return { type: 'user', id: row.userId as string };
}
