import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { contentProblem } from '../file-mappings';
import type { DesiredMapping, DesiredTarget } from './settings-desired';
import {
  problemAt,
  type Location,
  type PathSegment,
  type SettingsProblem,
} from './settings-problems';
import type { FileMappingSetting } from './settings-file.schemas';

/** What reading each content_file gave, by the path as written in the file. */
export type ContentFiles = ReadonlyMap<string, { content: string } | { error: string }>;

export type Locate = (path: readonly PathSegment[]) => Location;

/**
 * The items of a list that match their schema; the others were already reported by the schema
 * check. Items are checked one by one (and file mappings apart from their owner), so that one
 * broken item does not hide the problems of the rest.
 */
export function validItems<T>(
  list: unknown,
  path: PathSegment[],
  schema: TSchema,
  ignore?: string,
): { item: T; path: PathSegment[] }[] {
  return listedItems<T>(list, path, schema, ignore).flatMap(({ valid, path: at }) =>
    valid ? [{ item: valid, path: at }] : [],
  );
}

/** An item of a list as written, and the same item typed when it matches its schema. */
export interface ListedItem<T> {
  raw: Record<string, unknown>;
  valid: T | null;
  path: PathSegment[];
}

/**
 * Every item of a list, valid or not: an item that breaks its schema still has a name that must
 * be unique and references (a zone, a workspace) to check, so that one pass finds every problem.
 */
export function listedItems<T>(
  list: unknown,
  path: PathSegment[],
  schema: TSchema,
  ignore?: string,
): ListedItem<T>[] {
  if (!Array.isArray(list)) return [];
  const checked = (item: unknown) =>
    ignore && item && typeof item === 'object'
      ? Object.fromEntries(Object.entries(item).filter(([key]) => key !== ignore))
      : item;
  return list.map((item: unknown, index) => ({
    raw: item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {},
    valid: Value.Check(schema, checked(item)) ? (item as T) : null,
    path: [...path, index],
  }));
}
export const section = <T>(value: Record<string, unknown>, name: string, schema: TSchema) =>
  listedItems<T>(value[name], [name], schema);
/** An owner of file mappings counts as valid whatever its mappings are: they are checked one by one. */
export const owners = <T>(value: Record<string, unknown>, name: string, schema: TObject) =>
  listedItems<T>(value[name], [name], Type.Omit(schema, ['file_mappings']), 'file_mappings');

/** A name as written, trimmed; undefined when it is not text or blank (the schema check says so). */
export function textField(raw: Record<string, unknown>, key: string): string | undefined {
  const value = raw[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** One file mapping of the file, its content read inline or from its content_file. */
export function normalizeMapping(
  raw: FileMappingSetting,
  target: DesiredTarget,
  path: PathSegment[],
  locate: Locate,
  contentFiles: ContentFiles,
): DesiredMapping | { problems: SettingsProblem[] } {
  const contentKey = raw.content_file === undefined ? 'content' : 'content_file';
  const contentAt = locate([...path, contentKey]);
  let content = raw.content ?? '';
  const problems: SettingsProblem[] = [];
  if (raw.content !== undefined && raw.content_file !== undefined) {
    problems.push(problemAt(contentAt, 'give content or content_file, not both'));
  } else if (raw.content_file !== undefined) {
    const file = contentFiles.get(raw.content_file) ?? { error: 'was not read' };
    if ('error' in file) problems.push(problemAt(contentAt, file.error));
    else content = file.content;
  }
  const tooLarge = contentProblem(content);
  if (tooLarge) problems.push(problemAt(contentAt, tooLarge));
  if (problems.length > 0) return { problems };
  return {
    target,
    name: raw.name.trim(),
    description: raw.description ?? '',
    destination: raw.destination,
    executable: raw.executable ?? false,
    content,
    at: locate([...path, 'destination']),
  };
}

/** The policy fields an item of the file gives, by their column (absent ones left out; null kept). */
export function givenPolicy<T>(
  item: Record<string, unknown>,
  fields: readonly { field: string; column: string }[],
): Partial<T> {
  return Object.fromEntries(
    fields.filter(({ field }) => item[field] !== undefined).map((f) => [f.column, item[f.field]]),
  ) as Partial<T>;
}
