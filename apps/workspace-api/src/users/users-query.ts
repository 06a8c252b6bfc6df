import { ValidationFailedError, withFieldErrors } from '@platform/errors';
import type { Db } from '../db';
import { InvalidCursorError } from '../errors';
import type { Prisma } from '../generated/prisma/client';
import { USER_WITH_GROUPS, type UserWithGroups } from './user-response';
import type { GetUsersBody } from './users.schemas';

const SORT_COLUMNS = {
  username: 'username',
  created: 'createdAt',
  organization: 'organization',
  first_name: 'firstName',
  last_name: 'lastName',
} as const;

type SortColumn = (typeof SORT_COLUMNS)[keyof typeof SORT_COLUMNS];
type CursorValue = string;

export interface UsersPage {
  users: UserWithGroups[];
  total: number;
  nextCursor: string | null;
}

function asBoolean(value: string | boolean, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw withFieldErrors(new ValidationFailedError('The request is invalid'), [{ field, message: 'must be true or false' }]);
}

function filterWhere(filters: GetUsersBody['filters']): Prisma.UserWhereInput {
  const where: Prisma.UserWhereInput[] = filters.map(({ id, value }, i) => {
    if (id === 'locked' || id === 'disabled') return { [id]: asBoolean(value, `filters.${i}.value`) };
    return { [id]: { contains: String(value).trim(), mode: 'insensitive' } };
  });
  return { AND: where };
}

function encodeCursor(column: SortColumn, user: UserWithGroups): string {
  const value = user[column];
  const raw = value instanceof Date ? value.toISOString() : value;
  return Buffer.from(JSON.stringify([column, raw, user.id])).toString('base64url');
}

function decodeCursor(cursor: string, column: SortColumn): { value: CursorValue | Date; id: string } {
  try {
    const [c, value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (c === column && typeof value === 'string' && typeof id === 'string') {
      return { value: column === 'createdAt' ? new Date(value) : value, id };
    }
  } catch {
    // Falls through to the error below: any unreadable cursor is the client's mistake.
  }
  throw new InvalidCursorError();
}

/**
 * Pages through users. `page` uses OFFSET (what Kasm clients send); `cursor` uses keyset
 * paging on (sort column, id), which costs the same on the last page as on the first.
 */
export async function listUsers(db: Db, query: GetUsersBody): Promise<UsersPage> {
  const column = SORT_COLUMNS[query.sort_by];
  const direction = query.sort_direction;
  const filters = filterWhere(query.filters);
  let where = filters;
  if (query.cursor) {
    const after = decodeCursor(query.cursor, column);
    const beyond = direction === 'asc' ? 'gt' : 'lt';
    where = {
      AND: [
        filters,
        { OR: [{ [column]: { [beyond]: after.value } }, { [column]: after.value, id: { [beyond]: after.id } }] },
      ],
    };
  }
  const [users, total] = await Promise.all([
    db.user.findMany({
      where,
      include: USER_WITH_GROUPS,
      orderBy: [{ [column]: direction }, { id: direction }],
      take: query.page_size,
      skip: query.cursor ? 0 : query.page * query.page_size,
    }),
    db.user.count({ where: filters }),
  ]);
  const last = users.at(-1);
  const nextCursor = last && users.length === query.page_size ? encodeCursor(column, last) : null;
  return { users, total, nextCursor };
}
