import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import type { Db } from '../db';
import { InvalidCursorError } from '../errors';
import { Prisma } from '../generated/prisma/client';
import type { UserView } from './user-response';
import { tableIn } from '../db';
import { userColumns } from './users.repository';
import type { GetUsersBody } from './users.schemas';

// Sort columns, their field names in cursors, and whether they are unique (then id breaks no ties).
const SORTS = {
  username: { column: 'username', field: 'username', unique: true },
  created: { column: 'created_at', field: 'createdAt', unique: false },
  organization: { column: 'organization', field: 'organization', unique: false },
  first_name: { column: 'first_name', field: 'firstName', unique: false },
  last_name: { column: 'last_name', field: 'lastName', unique: false },
} as const;
type Sort = (typeof SORTS)[keyof typeof SORTS];

export interface UsersPage {
  users: UserView[];
  total: number;
  nextCursor: string | null;
}

function asBoolean(value: string | boolean, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw withFieldErrors(new ValidationFailedError('The request is invalid'), [
    { field, message: 'must be true or false' },
  ]);
}

/** A case-insensitive substring: LIKE's wildcards in the value match themselves. */
const containing = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;

function filterWhere(filters: GetUsersBody['filters']): Prisma.Sql {
  const conditions = filters.map(({ id, value }, i) => {
    if (id === 'locked' || id === 'disabled') {
      return Prisma.sql`u.${Prisma.raw(id)} = ${asBoolean(value, `filters.${i}.value`)}`;
    }
    return Prisma.sql`u.${Prisma.raw(id)} ILIKE ${containing(String(value).trim())} ESCAPE '\\'`;
  });
  return conditions.length > 0 ? Prisma.join(conditions, ' AND ') : Prisma.sql`true`;
}

function encodeCursor(sort: Sort, user: UserView): string {
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

/**
 * The ids of one page, in the requested order. `cursor` is keyset paging on (sort column, id):
 * an index range scan that costs the same on every page. `page` (what Kasm clients send) uses
 * OFFSET over the ids alone (an index-only scan, no heap rows skipped), and from the far end of
 * the order when the page lies in the back half, so the last page costs what the first does and
 * the middle one costs most.
 */
function pageIds(schema: string, query: GetUsersBody, sort: Sort, where: Prisma.Sql): Prisma.Sql {
  const users = tableIn(schema, 'user');
  const col = Prisma.raw(`u.${sort.column}`);
  const order = (dir: 'asc' | 'desc') => {
    const d = Prisma.raw(dir.toUpperCase());
    return sort.unique
      ? Prisma.sql`ORDER BY ${col} ${d}`
      : Prisma.sql`ORDER BY ${col} ${d}, u.id ${d}`;
  };
  const direction = query.sort_direction;
  if (query.cursor) {
    const after = decodeCursor(query.cursor, sort);
    const value =
      sort.field === 'createdAt'
        ? Prisma.sql`${after.value}::timestamptz`
        : Prisma.sql`${after.value}`;
    const beyond = Prisma.raw(direction === 'asc' ? '>' : '<');
    const keyset = sort.unique
      ? Prisma.sql`${col} ${beyond} ${value}`
      : Prisma.sql`(${col}, u.id) ${beyond} (${value}, ${after.id}::uuid)`;
    return Prisma.sql`SELECT u.id FROM ${users} u WHERE ${where} AND ${keyset} ${order(direction)} LIMIT ${query.page_size}`;
  }
  const offset = query.page * query.page_size;
  const reverse = direction === 'asc' ? 'desc' : 'asc';
  return Prisma.sql`
    (SELECT u.id FROM ${users} u WHERE ${where} AND ${offset} <= (SELECT n FROM total) / 2
     ${order(direction)} OFFSET ${offset} LIMIT ${query.page_size})
    UNION ALL
    (SELECT u.id FROM ${users} u WHERE ${where} AND ${offset} > (SELECT n FROM total) / 2
     ${order(reverse)}
     OFFSET greatest((SELECT n FROM total) - ${offset} - ${query.page_size}, 0)
     LIMIT greatest(least(${query.page_size}, (SELECT n FROM total) - ${offset}), 0))`;
}

/** get_users in one statement: the total, one page of ids, then those users with their groups. */
export function listUsersSql(schema: string, query: GetUsersBody): Prisma.Sql {
  const sort = SORTS[query.sort_by];
  const where = filterWhere(query.filters);
  const d = Prisma.raw(query.sort_direction.toUpperCase());
  const col = Prisma.raw(`u.${sort.column}`);
  // An empty page still yields one row (all NULL but the total), so that the total is known.
  // The page's rows are fetched one by one by primary key (LIMIT 1 keeps the planner from
  // flattening it): it cannot tell that `page` holds at most page_size ids and would otherwise
  // hash the whole table.
  return Prisma.sql`
    WITH total AS (SELECT count(*)::int AS n FROM ${tableIn(schema, 'user')} u WHERE ${where}),
         page AS (SELECT id FROM (${pageIds(schema, query, sort, where)}) ids LIMIT ${query.page_size})
    SELECT total.n AS total, ${userColumns(schema)}
    FROM total LEFT JOIN (
      page CROSS JOIN LATERAL (SELECT * FROM ${tableIn(schema, 'user')} one WHERE one.id = page.id LIMIT 1) u
    ) ON true
    ORDER BY ${sort.unique ? Prisma.sql`${col} ${d}` : Prisma.sql`${col} ${d}, u.id ${d}`}`;
}

export async function listUsers(db: Db, schema: string, query: GetUsersBody): Promise<UsersPage> {
  const rows = await db.$queryRaw<(UserView & { total: number })[]>(listUsersSql(schema, query));
  const total = rows[0]?.total ?? 0;
  const users = rows.filter((row) => row.id !== null);
  const last = users.at(-1);
  const sort = SORTS[query.sort_by];
  const nextCursor = last && users.length === query.page_size ? encodeCursor(sort, last) : null;
  return { users, total, nextCursor };
}
