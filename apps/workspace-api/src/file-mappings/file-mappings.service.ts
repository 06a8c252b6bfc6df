import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { Db } from '../db';
import {
  FileMappingDestinationTakenError,
  FileMappingNotFoundError,
  GroupNotFoundError,
  ImageNotFoundError,
  UserNotFoundError,
} from '../errors';
import type { FileMapping, Prisma } from '../generated/prisma/client';
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
  targetColumns,
  type MappingTarget,
} from './mapping-target';

const NOT_FOUND = { image: ImageNotFoundError, group: GroupNotFoundError, user: UserNotFoundError };
const prismaCode = (error: unknown) => (error as { code?: string } | null)?.code;

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

export function createFileMappingsService({ db }: { db: Db }) {
  const notFound = (target: MappingTarget) =>
    new NOT_FOUND[target.type](`${target.type}_id ${target.id.replace(/-/g, '')}`);
  const taken = (target: MappingTarget, destination: string) =>
    new FileMappingDestinationTakenError(TARGET_NOUNS[target.type], destination);

  async function requireExists(target: MappingTarget) {
    const where = { where: { id: target.id }, select: { id: true } };
    const found =
      target.type === 'image'
        ? await db.image.findUnique(where)
        : target.type === 'group'
          ? await db.group.findUnique(where)
          : await db.user.findUnique(where);
    if (!found) throw notFound(target);
  }

  return {
    /** Every mapping, or those of one workspace, group or user (404 when it does not exist). */
    async list(ids: TargetIds = {}): Promise<FileMapping[]> {
      const target = requireTarget(ids, false);
      if (target) await requireExists(target);
      const where: Prisma.FileMappingWhereInput = target ? targetColumns(target) : {};
      return db.fileMapping.findMany({ where, orderBy: [{ destination: 'asc' }, { id: 'asc' }] });
    },

    /** The target's existence and the (target, destination) uniqueness are decided by the database. */
    async create(input: CreateFileMappingInput): Promise<FileMapping> {
      const target = requireTarget(input, true);
      checkContent(input.content);
      const data = {
        ...targetColumns(target),
        name: input.name.trim(),
        description: input.description,
        destination: input.destination,
        executable: input.executable,
        content: input.content,
      };
      return db.fileMapping.create({ data }).catch((error: unknown) => {
        if (prismaCode(error) === 'P2002') throw taken(target, input.destination);
        if (prismaCode(error) === 'P2003') throw notFound(target);
        throw error;
      });
    },

    /** Only the fields present change; the target stays. */
    async update(input: UpdateFileMappingInput): Promise<FileMapping> {
      checkContent(input.content);
      const id = toUuid(input.file_mapping_id);
      const data = {
        name: input.name?.trim(),
        description: input.description,
        destination: input.destination,
        executable: input.executable,
        content: input.content,
      };
      return db.fileMapping.update({ where: { id }, data }).catch(async (error: unknown) => {
        if (prismaCode(error) === 'P2025')
          throw new FileMappingNotFoundError(`file_mapping_id ${input.file_mapping_id}`);
        const row =
          prismaCode(error) === 'P2002' ? await db.fileMapping.findUnique({ where: { id } }) : null;
        throw row ? taken(rowTarget(row), input.destination ?? row.destination) : error;
      });
    },

    async remove(fileMappingId: string): Promise<void> {
      const { count } = await db.fileMapping.deleteMany({ where: { id: toUuid(fileMappingId) } });
      if (count === 0) throw new FileMappingNotFoundError(`file_mapping_id ${fileMappingId}`);
    },
  };
}
export type FileMappingsService = ReturnType<typeof createFileMappingsService>;
