import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import { isForeignKeyViolation, isUniqueViolation } from '../db';
import {
  FileMappingDestinationTakenError,
  FileMappingNotFoundError,
  GroupNotFoundError,
  ImageNotFoundError,
  UserNotFoundError,
} from '../errors';
import {
  decodeCursor,
  type FileMappingPage,
  fillPage,
  MAX_LIST_PAGE_SIZE,
} from './file-mapping-pages';
import type { FileMappingRow, FileMappingsRepository } from './file-mappings.repository';
import type {
  CreateFileMappingInput,
  TargetIds,
  UpdateFileMappingInput,
} from './file-mappings.schemas';
import {
  contentProblem,
  pickTarget,
  rowTarget,
  TARGET_NOUNS,
  type MappingTarget,
} from './mapping-target';

const NOT_FOUND = { image: ImageNotFoundError, group: GroupNotFoundError, user: UserNotFoundError };

/** Whether a workspace, group or user exists: asked of their own repositories. */
export interface MappingTargets {
  exists(target: MappingTarget): Promise<boolean>;
}

function invalid(problems: FieldProblem[]): never {
  throw withFieldErrors(new ValidationFailedError('The request is invalid'), problems);
}

function checkContent(content: string | undefined) {
  const problem = contentProblem(content);
  if (problem) invalid([{ field: 'target_file_mapping.content', message: problem }]);
}

function requireTarget(ids: TargetIds, required: true): MappingTarget;
function requireTarget(ids: TargetIds, required: false): MappingTarget | null;
function requireTarget(ids: TargetIds, required: boolean): MappingTarget | null {
  const target = pickTarget(ids, required);
  if (target && 'field' in target) invalid([target]);
  return target && { type: target.type, id: toUuid(target.id) };
}

export function createFileMappingsService({
  mappings,
  targets,
}: {
  mappings: FileMappingsRepository;
  targets: MappingTargets;
}) {
  const notFound = (target: MappingTarget) =>
    new NOT_FOUND[target.type](`${target.type}_id ${target.id.replace(/-/g, '')}`);
  const taken = (target: MappingTarget, destination: string) =>
    new FileMappingDestinationTakenError(TARGET_NOUNS[target.type], destination);

  return {
    /** Every mapping, or those of one workspace, group or user (404 when it does not exist). */
    async list(ids: TargetIds = {}): Promise<FileMappingRow[]> {
      const target = requireTarget(ids, false);
      const rows = await mappings.list(target);
      // Only an empty list can mean the target does not exist.
      if (target && rows.length === 0 && !(await targets.exists(target))) throw notFound(target);
      return rows;
    },

    /** One page of `list`, bounded in mappings and in content bytes (file-mapping-pages.ts). */
    async page(
      ids: TargetIds = {},
      { cursor, pageSize = MAX_LIST_PAGE_SIZE }: { cursor?: string; pageSize?: number } = {},
    ): Promise<FileMappingPage> {
      const target = requireTarget(ids, false);
      const after = cursor === undefined ? null : decodeCursor(cursor);
      const listed = await mappings.listPage(target, after, pageSize + 1);
      if (target && !after && listed.length === 0 && !(await targets.exists(target)))
        throw notFound(target);
      return fillPage(listed, pageSize, mappings.contentOf);
    },

    async find(fileMappingId: string): Promise<FileMappingRow> {
      const row = await mappings.find(toUuid(fileMappingId));
      if (!row) throw new FileMappingNotFoundError(`file_mapping_id ${fileMappingId}`);
      return row;
    },

    /** The target's existence and the (target, destination) uniqueness are decided by the database. */
    async create(input: CreateFileMappingInput): Promise<FileMappingRow> {
      const target = requireTarget(input, true);
      checkContent(input.content);
      const fields = {
        name: input.name.trim(),
        description: input.description,
        destination: input.destination,
        executable: input.executable,
        content: input.content,
      };
      return mappings.create(target, fields).catch((error: unknown) => {
        if (isUniqueViolation(error)) throw taken(target, input.destination);
        if (isForeignKeyViolation(error)) throw notFound(target);
        throw error;
      });
    },

    /** Only the fields present change; the target stays. */
    async update(input: UpdateFileMappingInput): Promise<FileMappingRow> {
      checkContent(input.content);
      const id = toUuid(input.file_mapping_id);
      const fields = {
        name: input.name?.trim(),
        description: input.description,
        destination: input.destination,
        executable: input.executable,
        content: input.content,
      };
      const row = await mappings.update(id, fields).catch(async (error: unknown) => {
        const existing = isUniqueViolation(error) ? await mappings.find(id) : null;
        throw existing
          ? taken(rowTarget(existing), input.destination ?? existing.destination)
          : error;
      });
      if (!row) throw new FileMappingNotFoundError(`file_mapping_id ${input.file_mapping_id}`);
      return row;
    },

    async remove(fileMappingId: string): Promise<void> {
      if (!(await mappings.remove(toUuid(fileMappingId))))
        throw new FileMappingNotFoundError(`file_mapping_id ${fileMappingId}`);
    },
  };
}
export type FileMappingsService = ReturnType<typeof createFileMappingsService>;
