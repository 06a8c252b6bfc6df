import { tableIn, type Db } from '../db';
import { Prisma } from '../generated/prisma/client';
import type { UserView } from './user-response';

// The user reads and writes on the hot paths, each one statement (one round trip) in raw SQL:
// Prisma's include costs three queries, and its update-with-include a four-statement
// transaction (bench/README.md has the measurements). Columns are aliased to the model's field
// names, and groups come as `[{group: {id, name}}]` as with USER_WITH_GROUPS: both are a UserView.

export interface UserChange {
  username?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  organization?: string;
  notes?: string;
  locked?: boolean;
  disabled?: boolean;
  /** A new bcrypt hash: sets password_set_date, resets failed logins and ends every login session. */
  passwordHash?: string;
}

/** A raw query's unique violation: Prisma reports it as P2010 with the driver's error kind, not P2002. */
export function isRawUniqueViolation(error: unknown): boolean {
  const e = error as {
    code?: string;
    meta?: { driverAdapterError?: { cause?: { kind?: string } } };
  } | null;
  return (
    e?.code === 'P2010' && e.meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation'
  );
}

/** The UserView columns of `u`, and its groups in membership order. */
export function userColumns(schema: string): Prisma.Sql {
  return Prisma.sql`u.id, u.username, u.first_name AS "firstName", u.last_name AS "lastName", u.phone,
    u.organization, u.notes, u.locked, u.disabled, u.realm, u.created_at AS "createdAt",
    u.last_session AS "lastSession", u.password_set_date AS "passwordSetDate",
    coalesce((SELECT json_agg(json_build_object('group', json_build_object('id', g.id, 'name', g.name)) ORDER BY ug.created_at)
              FROM ${tableIn(schema, 'user_group')} ug JOIN ${tableIn(schema, 'group')} g ON g.id = ug.group_id
              WHERE ug.user_id = u.id), '[]') AS groups`;
}

/** One user with its groups. */
export function findUserSql(
  schema: string,
  where: { id: string } | { username: string },
): Prisma.Sql {
  const condition =
    'id' in where
      ? Prisma.sql`u.id = ${where.id}::uuid`
      : Prisma.sql`u.username = ${where.username}`;
  return Prisma.sql`SELECT ${userColumns(schema)} FROM ${tableIn(schema, 'user')} u WHERE ${condition}`;
}

/** Changes only the fields given and returns the user with its groups, in one statement. */
export function updateUserSql(schema: string, id: string, change: UserChange): Prisma.Sql {
  const hash = change.passwordHash ?? null;
  return Prisma.sql`
    WITH u AS (
      UPDATE ${tableIn(schema, 'user')} SET
        username = coalesce(${change.username ?? null}, username),
        first_name = coalesce(${change.firstName ?? null}, first_name),
        last_name = coalesce(${change.lastName ?? null}, last_name),
        phone = coalesce(${change.phone ?? null}, phone),
        organization = coalesce(${change.organization ?? null}, organization),
        notes = coalesce(${change.notes ?? null}, notes),
        locked = coalesce(${change.locked ?? null}::boolean, locked),
        disabled = coalesce(${change.disabled ?? null}::boolean, disabled),
        password_hash = coalesce(${hash}, password_hash),
        password_set_date = CASE WHEN ${hash}::text IS NULL THEN password_set_date ELSE now() END,
        failed_login_count = CASE WHEN ${hash}::text IS NOT NULL OR ${change.locked ?? null}::boolean = false
                                  THEN 0 ELSE failed_login_count END,
        updated_at = now()
      WHERE id = ${id}::uuid
      RETURNING *
    ), ended AS (
      DELETE FROM ${tableIn(schema, 'session')} WHERE user_id = ${id}::uuid AND ${hash}::text IS NOT NULL
        AND EXISTS (SELECT 1 FROM u)
    )
    SELECT ${userColumns(schema)} FROM u`;
}

export function createUsersRepository(db: Db, schema: string) {
  const one = async (sql: Prisma.Sql) => (await db.$queryRaw<UserView[]>(sql))[0] ?? null;
  return {
    findById: (id: string) => one(findUserSql(schema, { id })),
    findByUsername: (username: string) => one(findUserSql(schema, { username })),
    /** Null when no user has the id. A taken username fails (see isRawUniqueViolation). */
    update: (id: string, change: UserChange) => one(updateUserSql(schema, id, change)),
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
