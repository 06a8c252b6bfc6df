import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  recordedChange,
  recordedRemoval,
  type AuditRecorder,
  type Tx,
} from '../db';
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
import { toFileMappingResponse } from './file-mapping-response';
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
  const missing = (id: string) => new FileMappingNotFoundError(`file_mapping_id ${id}`);
  /** The mapping as get_file_mapping answers it, read in `tx`: its audit snapshot. */
  const snapshot = (id: string) => async (tx: Tx) => {
    const row = await mappings.find(id, tx);
    return row && toFileMappingResponse(row);
  };
  const answered = (_tx: Tx, row: FileMappingRow) => toFileMappingResponse(row);

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
      if (!row) throw missing(fileMappingId);
      return row;
    },

    /**
     * The target's existence and the (target, destination) uniqueness are decided by the
     * database. With `audit` (here and below), the API's event is written in the change's
     * transaction.
     */
    async create(
      input: CreateFileMappingInput,
      audit?: AuditRecorder | null,
    ): Promise<FileMappingRow> {
      const target = requireTarget(input, true);
      checkContent(input.content);
      const fields = {
        name: input.name.trim(),
        description: input.description,
        destination: input.destination,
        executable: input.executable,
        content: input.content,
      };
      return recordedChange(mappings.transaction, audit, {
        change: (tx) => mappings.create(target, fields, tx),
        after: answered,
      }).catch((error: unknown) => {
        if (isUniqueViolation(error)) throw taken(target, input.destination);
        if (isForeignKeyViolation(error)) throw notFound(target);
        throw error;
      });
    },

    /**
     * Only the fields present change; the target stays. The mapping is read in the change's
     * transaction first, so that a destination its target already uses (the unique index's
     * refusal, which ends the transaction) is named without another query.
     */
    async update(
      input: UpdateFileMappingInput,
      audit?: AuditRecorder | null,
    ): Promise<FileMappingRow> {
      checkContent(input.content);
      const id = toUuid(input.file_mapping_id);
      const fields = {
        name: input.name?.trim(),
        description: input.description,
        destination: input.destination,
        executable: input.executable,
        content: input.content,
      };
      return recordedChange(mappings.transaction, audit, {
        before: snapshot(id),
        change: async (tx) => {
          const existing = await mappings.find(id, tx);
          if (!existing) throw missing(input.file_mapping_id);
          const row = await mappings.update(id, fields, tx).catch((error: unknown) => {
            if (!isUniqueViolation(error)) throw error;
            throw taken(rowTarget(existing), input.destination ?? existing.destination);
          });
          if (!row) throw missing(input.file_mapping_id);
          return row;
        },
        after: answered,
      });
    },

    async remove(fileMappingId: string, audit?: AuditRecorder | null): Promise<void> {
      const id = toUuid(fileMappingId);
      await recordedRemoval(
        mappings.transaction,
        audit,
        snapshot(id),
        (tx) => mappings.remove(id, tx),
        () => missing(fileMappingId),
      );
    },
  };
}
export type FileMappingsService = ReturnType<typeof createFileMappingsService>;
