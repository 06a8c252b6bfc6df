// The baseline's statements: the texts the services send for the compared requests
// (workspace-api's users.sql.ts and kasms.repository.ts, calendar-api's events.sql.ts),
// written out here because the bench does not import the apps. The plan check compares them with what the services really
// send and reports any difference (bench/lib/plans.mjs), so that a baseline never does less
// database work than its service.

const LIVE = `'requested', 'provisioning', 'starting', 'running', 'stopping'`;
const userColumns = `u.id, u.username, u.first_name AS "firstName", u.last_name AS "lastName", u.phone,
    u.organization, u.notes, u.locked, u.disabled, u.realm, u.created_at AS "createdAt",
    u.last_session AS "lastSession", u.password_set_date AS "passwordSetDate",
    coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name) ORDER BY ug.created_at)
              FROM "workspace"."user_group" ug JOIN "workspace"."group" g ON g.id = ug.group_id
              WHERE ug.user_id = u.id), '[]') AS groups`;

/** A user by id. */
const GET_USER = `SELECT ${userColumns} FROM "workspace"."user" u WHERE u.id = $1::uuid`;

/** Whether any session of the user is live (the sessions feature's probe, sent beside GET_USER). */
export const HAS_LIVE_SESSIONS = `SELECT EXISTS (SELECT 1 FROM "workspace"."kasm" k
             WHERE k.user_id = $1::uuid AND k.status IN (${LIVE})) AS "hasLive"`;

const wireId = (/** @type {string} */ column) => `replace(${column}::text, '-', '')`;
const utc = (/** @type {string} */ column) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** The user's snapshot in the audit trail, as update_user's statement builds it. */
const snapshot = (
  /** @type {string} */ u,
) => `json_build_object('user_id', ${wireId(`${u}.id`)}, 'username', ${u}.username,
    'first_name', ${u}.first_name, 'last_name', ${u}.last_name, 'phone', ${u}.phone,
    'organization', ${u}.organization, 'notes', ${u}.notes, 'locked', ${u}.locked,
    'disabled', ${u}.disabled, 'realm', ${u}.realm,
    'groups', coalesce((SELECT json_agg(json_build_object('group_id', ${wireId('g.id')}, 'name', g.name)
                        ORDER BY ug.created_at)
              FROM "workspace"."user_group" ug JOIN "workspace"."group" g ON g.id = ug.group_id
              WHERE ug.user_id = ${u}.id), '[]'),
    'created', ${utc(`${u}.created_at`)}, 'last_session', ${utc(`${u}.last_session`)},
    'password_set_date', CASE WHEN ${u}.password_set_date IS NULL THEN NULL ELSE '[redacted]' END)`;

/**
 * Only the fields given change ($2–$10, null when not given); answers the user. The same
 * statement inserts the write's audit event ($11–$19: id, actor kind, id, name, channel,
 * operation, target type, address, user agent), as the service records every API write.
 */
const UPDATE_USER = `
    WITH old AS (
      SELECT o.id, ${snapshot('o')} AS snapshot FROM "workspace"."user" o
      WHERE o.id = $1::uuid FOR UPDATE
    ), u AS (
      UPDATE "workspace"."user" AS t SET
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
      INSERT INTO "workspace"."audit_event"
        (id, actor_kind, actor_id, actor_name, channel, operation, target_type, target_id,
         client_ip, user_agent, result, status, before, after)
      SELECT $11::uuid, $12::text, $13::text, $14::text, $15::text,
        $16::text, $17::text, replace(u.id::text, '-', ''), $18::text, $19::text, 'success', 200,
        u.before, ${snapshot('u')}
      FROM u WHERE $11::uuid IS NOT NULL
    )
    SELECT ${userColumns} FROM u`;

// The events: the single ones, then the recurring ones whose series reach the window.

const columns = (/** @type {boolean} */ single) => `${
  single ? 'NULL::text AS rrule, NULL::text[] AS exdates' : 'e.rrule, e.exdates::text[] AS exdates'
}, e.id, e.date::text AS date, e.title, e.description, e.type, e.period,
    e.source_channel AS "sourceChannel", e.source_message_id AS "sourceMessageId",
    e.chat_message_id IS NOT NULL AS "fromChat", e.sequence,
    (e.created_at AT TIME ZONE 'UTC')::text AS "createdAt",
    (e.updated_at AT TIME ZONE 'UTC')::text AS "updatedAt"`;

const events = (/** @type {string} */ single, /** @type {string} */ series) =>
  `(SELECT ${columns(true)} FROM "calendar"."calendar_event" e
    WHERE e.rrule IS NULL AND ${single} ORDER BY e.date, e.id) UNION ALL (SELECT ${columns(false)} FROM "calendar"."calendar_event" e
    WHERE e.rrule IS NOT NULL AND ${series})`;

/** By the plan check's request names. */
export const STATEMENTS = {
  'get_user by id': GET_USER,
  update_user: UPDATE_USER,
  'GET /events/{date}': events(
    'e.date = $1::date',
    'e.series_end >= $1::date AND e.date <= $1::date',
  ),
  'GET /events/range': events(
    'e.date >= $1::date AND e.date <= $2::date',
    'e.series_end >= $1::date AND e.date <= $2::date',
  ),
};

/**
 * Statement texts compared without regard to spacing.
 * @param {string} a
 * @param {string} b
 */
export const sameStatement = (a, b) =>
  a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();
