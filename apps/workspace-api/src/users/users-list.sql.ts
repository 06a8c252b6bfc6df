import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import { qualified, type Statement } from '../db';
import { InvalidCursorError } from '../errors';
import type { UserRow } from './user-row';
import { userColumns } from './users.sql';
import type { UsersFilter, UsersOrder } from './users.schemas';

// Sort columns, their field names in cursors, and whether they are unique (then id breaks no ties).
const SORTS = {
  username: { column: 'username', field: 'username', unique: true },
  created: { column: 'created_at', field: 'createdAt', unique: false },
  organization: { column: 'organization', field: 'organization', unique: false },
  first_name: { column: 'first_name', field: 'firstName', unique: false },
  last_name: { column: 'last_name', field: 'lastName', unique: false },
} as const;
type Sort = (typeof SORTS)[keyof typeof SORTS];

/** Which users, in which order. */
export interface UsersSelection extends UsersOrder {
  filters: UsersFilter[];
}
/** One page of a selection: by number (what Kasm clients send) or after a cursor. */
export interface UsersPageQuery extends UsersSelection {
  page: number;
  page_size: number;
  cursor?: string;
}

export const DEFAULT_PAGE_SIZE = 100;

/** A page query: page 0 of DEFAULT_PAGE_SIZE by creation, unless `query` says otherwise. */
export function pageQuery(query: Partial<UsersPageQuery>): UsersPageQuery {
  return {
    page: 0,
    page_size: DEFAULT_PAGE_SIZE,
    filters: [],
    sort_by: 'created',
    sort_direction: 'asc',
    ...query,
  };
}

/** Builds a statement's text while collecting its values as `$n` parameters. */
function parameters() {
  const values: unknown[] = [];
  return { values, add: (value: unknown) => `$${values.push(value)}` };
}
type Params = ReturnType<typeof parameters>;

function asBoolean(value: string | boolean, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw withFieldErrors(new ValidationFailedError('The request is invalid'), [
    { field, message: 'must be true or false' },
  ]);
}

/** A case-insensitive substring: LIKE's wildcards in the value match themselves. */
const containing = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;

function filterWhere(filters: UsersFilter[], p: Params): string {
  const conditions = filters.map(({ id, value }, i) => {
    if (id === 'locked' || id === 'disabled') {
      return `u.${id} = ${p.add(asBoolean(value, `filters.${i}.value`))}::boolean`;
    }
    return `u.${id} ILIKE ${p.add(containing(String(value).trim()))} ESCAPE '\\'`;
  });
  return conditions.length > 0 ? conditions.join(' AND ') : 'true';
}

export function encodeCursor(query: UsersSelection, user: UserRow): string {
  const sort = SORTS[query.sort_by];
  const value = user[sort.field];
  const raw = value instanceof Date ? value.toISOString() : value;
  return Buffer.from(JSON.stringify([sort.field, raw, user.id])).toString('base64url');
}

function decodeCursor(cursor: string, sort: Sort): { value: string; id: string } {
  try {
    const [field, value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const timestamp = sort.field !== 'createdAt' || !Number.isNaN(Date.parse(value));
    if (
      field === sort.field &&
      typeof value === 'string' &&
      typeof id === 'string' &&
      uuid.test(id) &&
      timestamp
    ) {
      return { value, id };
    }
  } catch {
    // Falls through to the error below: any unreadable cursor is the client's mistake.
  }
  throw new InvalidCursorError();
}

function orderBy(sort: Sort, direction: 'asc' | 'desc'): string {
  const d = direction.toUpperCase();
  return sort.unique
    ? `ORDER BY u.${sort.column} ${d}`
    : `ORDER BY u.${sort.column} ${d}, u.id ${d}`;
}

/** Keyset paging on (sort column, id): an index range scan that costs the same on every page. */
function beyondCursor(query: UsersSelection, cursor: string, p: Params): string {
  const sort = SORTS[query.sort_by];
  const after = decodeCursor(cursor, sort);
  const value =
    sort.field === 'createdAt' ? `${p.add(after.value)}::timestamptz` : p.add(after.value);
  const beyond = query.sort_direction === 'asc' ? '>' : '<';
  return sort.unique
    ? `u.${sort.column} ${beyond} ${value}`
    : `(u.${sort.column}, u.id) ${beyond} (${value}, ${p.add(after.id)}::uuid)`;
}

/**
 * The ids of one page, in the requested order. `page` uses OFFSET over the ids alone (an
 * index-only scan, no heap rows skipped), and from the far end of the order when the page lies
 * in the back half, so that the last page costs what the first does.
 */
function pageIds(schema: string, query: UsersPageQuery, where: string, p: Params): string {
  const users = qualified(schema, 'user');
  const sort = SORTS[query.sort_by];
  const size = p.add(query.page_size);
  if (query.cursor) {
    const keyset = beyondCursor(query, query.cursor, p);
    return `SELECT u.id FROM ${users} u WHERE ${where} AND ${keyset} ${orderBy(sort, query.sort_direction)} LIMIT ${size}`;
  }
  const offset = `${p.add(query.page * query.page_size)}::int`;
  const reverse = query.sort_direction === 'asc' ? 'desc' : 'asc';
  return `
    (SELECT u.id FROM ${users} u WHERE ${where} AND ${offset} <= (SELECT n FROM total) / 2
     ${orderBy(sort, query.sort_direction)} OFFSET ${offset} LIMIT ${size}::int)
    UNION ALL
    (SELECT u.id FROM ${users} u WHERE ${where} AND ${offset} > (SELECT n FROM total) / 2
     ${orderBy(sort, reverse)}
     OFFSET greatest((SELECT n FROM total) - ${offset} - ${size}::int, 0)
     LIMIT greatest(least(${size}::int, (SELECT n FROM total) - ${offset}), 0))`;
}

/** One page and the selection's total, in one statement. */
export function listUsersStatement(schema: string, query: UsersPageQuery): Statement {
  const p = parameters();
  const where = filterWhere(query.filters, p);
  const ids = pageIds(schema, query, where, p);
  // An empty page still yields one row (all NULL but the total), so that the total is known.
  // The page's rows are fetched one by one by primary key (LIMIT 1 keeps the planner from
  // flattening it): it cannot tell that `page` holds at most page_size ids and would otherwise
  // hash the whole table.
  const text = `
    WITH total AS (SELECT count(*)::int AS n FROM ${qualified(schema, 'user')} u WHERE ${where}),
         page AS (SELECT id FROM (${ids}) ids LIMIT ${p.add(query.page_size)}::int)
    SELECT total.n AS total, ${userColumns(schema)}
    FROM total LEFT JOIN (
      page CROSS JOIN LATERAL (SELECT * FROM ${qualified(schema, 'user')} one WHERE one.id = page.id LIMIT 1) u
    ) ON true
    ${orderBy(SORTS[query.sort_by], query.sort_direction)}`;
  return { text, values: p.values };
}

/** Up to `limit` users of a selection after `cursor` (from the start without one); no total. */
export function usersBatchStatement(
  schema: string,
  query: UsersSelection,
  cursor: string | null,
  limit: number,
): Statement {
  const p = parameters();
  const where = filterWhere(query.filters, p);
  const keyset = cursor === null ? 'true' : beyondCursor(query, cursor, p);
  const text = `SELECT ${userColumns(schema)} FROM ${qualified(schema, 'user')} u
    WHERE ${where} AND ${keyset} ${orderBy(SORTS[query.sort_by], query.sort_direction)}
    LIMIT ${p.add(limit)}::int`;
  return { text, values: p.values };
}
