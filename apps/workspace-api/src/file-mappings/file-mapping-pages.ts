import { InvalidCursorError } from '../errors';
import type { FileMappingRow, ListedFileMapping, PagePosition } from './file-mappings.repository';
import { contentBytes } from './mapping-target';

/**
 * What one `get_file_mappings` answer carries at most: `page_size` mappings (default and most
 * MAX_LIST_PAGE_SIZE) and their contents up to LIST_CONTENT_BUDGET_BYTES in all, so that no list
 * holds every script at once (a page always holds at least one mapping, and one is at most 5 MiB).
 */
export const MAX_LIST_PAGE_SIZE = 100;
export const LIST_CONTENT_BUDGET_BYTES = 8 * 1024 * 1024;

export const encodeCursor = (row: PagePosition): string =>
  Buffer.from(JSON.stringify([row.destination, row.id])).toString('base64url');

export function decodeCursor(cursor: string): PagePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      /^[0-9a-f-]{36}$/.test(value[1])
    ) {
      return { destination: value[0], id: value[1] };
    }
  } catch {
    // Not JSON: the same answer as any other unreadable cursor.
  }
  throw new InvalidCursorError();
}

export interface FileMappingPage {
  rows: FileMappingRow[];
  nextCursor: string | null;
}

/**
 * Reads the contents of `listed` (the page's rows, one more than its size, without contents) one
 * at a time, until the page is full or the next content would pass the budget.
 */
export async function fillPage(
  listed: ListedFileMapping[],
  pageSize: number,
  contentOf: (id: string) => Promise<string | null>,
): Promise<FileMappingPage> {
  const rows: FileMappingRow[] = [];
  let bytes = 0;
  for (const row of listed.slice(0, pageSize)) {
    const content = await contentOf(row.id);
    if (content === null) continue;
    const size = contentBytes(content);
    if (rows.length > 0 && bytes + size > LIST_CONTENT_BUDGET_BYTES) break;
    rows.push({ ...row, content });
    bytes += size;
  }
  const last = rows.at(-1);
  const more = listed.length > rows.length && last !== undefined;
  return { rows, nextCursor: more ? encodeCursor(last) : null };
}
