import { EVENT_PARAMS, qualified, type EventInsertSql, type Statement } from '../db';

// The users repository's fixed statements. Each is one round trip, prepared by name on the pool:
// Prisma's include costs three queries and its update-with-include a four-statement transaction
// (docs/decisions/0001-users-statement-reads-groups.md has the measurements).

/** A change to a user: only the fields given change. */
export interface UserChange {
  username?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  organization?: string;
  notes?: string;
  locked?: boolean;
  disabled?: boolean;
  /** A new bcrypt hash: sets password_set_date and resets failed logins. */
  passwordHash?: string;
}

/**
 * The UserRow columns of `u`, its groups in membership order. The groups are read here, from the
 * groups repository's tables (user_group, group), and not by a statement of that repository
 * beside this one: sending get_user's and update_user's groups as a statement of their own cost
 * the service about 100 µs of CPU per request (+45 %) and get_user its ratio target
 * (docs/decisions/0001-users-statement-reads-groups.md). Only this projection and inGroup's
 * membership filter read them outside the groups repository; every write of them is its own.
 */
export function userColumns(schema: string): string {
  return `u.id, u.username, u.first_name AS "firstName", u.last_name AS "lastName", u.phone,
    u.organization, u.notes, u.locked, u.disabled, u.realm, u.created_at AS "createdAt",
    u.last_session AS "lastSession", u.password_set_date AS "passwordSetDate",
    coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY ug.created_at)
              FROM ${qualified(schema, 'user_group')} ug JOIN ${qualified(schema, 'group')} g ON g.id = ug.group_id
              WHERE ug.user_id = u.id), '[]') AS groups`;
}

const utc = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `u`'s snapshot in the audit trail, built by the statement that changes it: the wire form
 * (toUserResponse) as redact() leaves it, its password_set_date "[redacted]". It is what the
 * trail reads of a user elsewhere, so a test compares the two (test/audit/users-in-change.test.ts).
 */
export function userSnapshot(schema: string, u: string): string {
  const wireId = (column: string) => `replace(${column}::text, '-', '')`;
  return `json_build_object('user_id', ${wireId(`${u}.id`)}, 'username', ${u}.username,
    'first_name', ${u}.first_name, 'last_name', ${u}.last_name, 'phone', ${u}.phone,
    'organization', ${u}.organization, 'notes', ${u}.notes, 'locked', ${u}.locked,
    'disabled', ${u}.disabled, 'realm', ${u}.realm,
    'groups', coalesce((SELECT json_agg(json_build_object('group_id', ${wireId('g.id')}, 'name', g.name)
                        ORDER BY ug.created_at)
              FROM ${qualified(schema, 'user_group')} ug JOIN ${qualified(schema, 'group')} g ON g.id = ug.group_id
              WHERE ug.user_id = ${u}.id), '[]'),
    'created', ${utc(`${u}.created_at`)}, 'last_session', ${utc(`${u}.last_session`)},
    'password_set_date', CASE WHEN ${u}.password_set_date IS NULL THEN NULL ELSE '[redacted]' END)`;
}

/**
 * The users repository's fixed statements in `schema`, their texts built once, when the
 * repository is: pg compares a named statement's text with the prepared one at every run, and a
 * text built anew per request was a fresh string to build, flatten and compare
 * (docs/decisions/0001-users-statement-reads-groups.md).
 */
export function userStatements(schema: string, eventInsert: EventInsertSql) {
  const user = qualified(schema, 'user');
  const columns = userColumns(schema);
  const find = (where: string) => `SELECT ${columns} FROM ${user} u WHERE ${where}`;
  const findById = find('u.id = $1::uuid');
  const findByUsername = find('u.username = $1');
  // The row is locked as it is read, so that `before` is the version the update changes; the
  // event ($11 on) is inserted with the change, or not at all (db/audit-recorder.ts).
  const update = `
    WITH old AS (
      SELECT o.id, ${userSnapshot(schema, 'o')} AS snapshot FROM ${user} o
      WHERE o.id = $1::uuid FOR UPDATE
    ), u AS (
      UPDATE ${user} AS t SET
        username = coalesce($2::text, username),
        first_name = coalesce($3::text, first_name),
        last_name = coalesce($4::text, last_name),
        phone = coalesce($5::text, phone),
        organization = coalesce($6::text, organization),
        notes = coalesce($7::text, notes),
        locked = coalesce($8::boolean, locked),
        disabled = coalesce($9::boolean, disabled),
        password_hash = coalesce($10::text, password_hash),
        password_set_date = CASE WHEN $10::text IS NULL THEN password_set_date ELSE now() END,
        failed_login_count = CASE WHEN $10::text IS NOT NULL OR $8::boolean = false
                                  THEN 0 ELSE failed_login_count END,
        updated_at = now()
      FROM old WHERE t.id = old.id
      RETURNING t.*, old.snapshot AS before
    ), event AS (
      ${eventInsert({ from: 11, source: 'u', targetId: "replace(u.id::text, '-', '')", before: 'u.before', after: userSnapshot(schema, 'u') })}
    )
    SELECT ${columns} FROM u`;
  const failedLogin = `UPDATE ${user}
    SET failed_login_count = failed_login_count + 1,
        locked = locked OR failed_login_count + 1 >= $2, updated_at = now()
    WHERE id = $1::uuid`;
  const signedIn = `WITH u AS (
      UPDATE ${user}
      SET failed_login_count = 0, last_session = now(), updated_at = now()
      WHERE id = $1::uuid RETURNING *)
    SELECT ${columns} FROM u`;

  return {
    /** A user by id or username. */
    find: (where: { id: string } | { username: string }): Statement =>
      'id' in where
        ? { name: 'users_find_by_id', text: findById, values: [where.id] }
        : { name: 'users_find_by_username', text: findByUsername, values: [where.username] },

    /**
     * Changes only the fields given and answers the user with its groups, in one statement that
     * also inserts the write's audit event when `event` holds its values (EVENT_PARAMS of them).
     */
    update: (id: string, change: UserChange, event: readonly unknown[]): Statement => ({
      name: 'users_update',
      text: update,
      values: [
        id,
        change.username ?? null,
        change.firstName ?? null,
        change.lastName ?? null,
        change.phone ?? null,
        change.organization ?? null,
        change.notes ?? null,
        change.locked ?? null,
        change.disabled ?? null,
        change.passwordHash ?? null,
        ...event.slice(0, EVENT_PARAMS),
      ],
    }),

    /** A sign-in's failure: the count goes up, and the account locks at `limit`. */
    failedLogin: (id: string, limit: number): Statement => ({
      name: 'users_failed_login',
      text: failedLogin,
      values: [id, limit],
    }),

    /** A sign-in's success: failures forgotten, last_session set; answers the user. */
    signedIn: (id: string): Statement => ({
      name: 'users_signed_in',
      text: signedIn,
      values: [id],
    }),
  };
}
