// Bulk seeding in SQL (generate_series), never through the API: 100k users with groups and
// 1M calendar events over 10 years at full size. Tables are vacuumed and analysed afterwards,
// as autovacuum would have done on a database that grew to this size.
import pg from 'pg';

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'Ken',
  'Margaret',
  'Dennis',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Dijkstra',
  'Liskov',
  'Knuth',
  'Allen',
  'Thompson',
  'Hamilton',
  'Ritchie',
];
// A bcrypt hash of cost 12, so that rows are the size of real ones; no one logs in with it.
const PASSWORD_HASH = '$2b$12$C6UzMDM.H6dfI/f/IKxGhuUJ4WsOr2o2oM2iCZkq7iH9hWnN5K.Bu';
export const CALENDAR_FIRST_DAY = '2018-01-01';
export const CALENDAR_DAYS = 3653;

/**
 * @template T
 * @param {string} url
 * @param {(client: pg.Client) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * @param {string} url
 * @param {number} users
 */
export async function seedWorkspace(url, users) {
  await withClient(url, async (c) => {
    await c.query('SET search_path TO workspace');
    await c.query(
      `INSERT INTO "group" (id, name, description, priority, updated_at)
       SELECT gen_random_uuid(), 'Team ' || g, 'Seeded team ' || g, 10 + g, now() FROM generate_series(1, 20) g`,
    );
    await c.query(
      `INSERT INTO "user" (id, username, first_name, last_name, phone, organization, notes, locked, disabled,
                           password_hash, password_set_date, created_at, updated_at)
       SELECT gen_random_uuid(), 'user' || lpad(i::text, 7, '0'),
              ($2::text[])[1 + i % 10], ($3::text[])[1 + (i / 10) % 10],
              '+1 555 ' || lpad((i % 10000)::text, 4, '0'), 'Org ' || (i % 50),
              CASE WHEN i % 7 = 0 THEN 'Seeded user ' || i ELSE '' END, i % 97 = 0, i % 89 = 0,
              $4, now() - interval '30 days', now() - ($1 - i) * interval '1 minute', now()
       FROM generate_series(1, $1) i`,
      [users, FIRST, LAST, PASSWORD_HASH],
    );
    await c.query(
      `INSERT INTO user_group (user_id, group_id, created_at)
       SELECT id, '68d557ac-4cac-42cc-a9f3-1c7c853de0f3', created_at FROM "user"`,
    );
    // About half the users are in one team too, a tenth in a second one.
    await c.query(
      `WITH teams AS (SELECT id, row_number() OVER (ORDER BY name) AS n FROM "group" WHERE NOT is_system),
            numbered AS (SELECT id, created_at, row_number() OVER (ORDER BY created_at) AS n FROM "user")
       INSERT INTO user_group (user_id, group_id, created_at)
       SELECT u.id, t.id, u.created_at + interval '1 second'
       FROM numbered u JOIN teams t ON t.n = 1 + u.n % 20
       WHERE u.n % 2 = 0
       UNION ALL
       SELECT u.id, t.id, u.created_at + interval '2 seconds'
       FROM numbered u JOIN teams t ON t.n = 1 + (u.n + 7) % 20
       WHERE u.n % 10 = 1`,
    );
    await c.query('VACUUM ANALYZE "user", user_group, "group"');
  });
}

/**
 * @param {string} url
 * @param {number} events
 */
export async function seedCalendar(url, events) {
  await withClient(url, async (c) => {
    await c.query('SET search_path TO calendar');
    // One chat message per week; a quarter of the events came from one of them.
    await c.query(
      `INSERT INTO chat_message (channel, message_key, message_id, content_hash, week_start, updated_at)
       SELECT 'C0BENCH', 'ts-' || w, 'ts-' || w, md5(w::text) || md5((w + 1)::text),
              $1::date + w * 7, now()
       FROM generate_series(0, $2 / 7) w`,
      [CALENDAR_FIRST_DAY, CALENDAR_DAYS],
    );
    await c.query(
      `INSERT INTO calendar_event (date, title, description, type, period, source_channel, source_message_id,
                                   chat_message_id, created_at, updated_at)
       SELECT e.day, (ARRAY['Unit intro', 'Lab', 'Quiz', 'Reading', 'Project work', 'Review'])[1 + i % 6] || ' ' || i,
              CASE WHEN i % 3 = 0 THEN 'Read chapter ' || (i % 20) || ', Slides posted' ELSE '' END,
              (ARRAY['general', 'general', 'check-in', 'grade'])[1 + i % 4],
              (ARRAY['CSA', 'CSP', '3', NULL])[1 + (i / 4) % 4],
              CASE WHEN i % 4 = 0 THEN 'C0BENCH' END,
              CASE WHEN i % 4 = 0 THEN 'ts-' || ((e.day - $3::date) / 7) END,
              CASE WHEN i % 4 = 0 THEN 1 + (e.day - $3::date) / 7 END,
              now(), now()
       FROM generate_series(0, $1 - 1) i
       CROSS JOIN LATERAL (SELECT $3::date + (i::bigint * $2 / $1)::int AS day) e`,
      [events, CALENDAR_DAYS, CALENDAR_FIRST_DAY],
    );
    await c.query('VACUUM ANALYZE calendar_event, chat_message');
  });
}

/**
 * Random user ids in the wire form (32 hex characters).
 * @param {string} url
 * @param {number} count
 * @returns {Promise<string[]>}
 */
export async function sampleUserIds(url, count) {
  return withClient(url, async (c) => {
    const { rows } = await c.query(
      `SELECT replace(id::text, '-', '') AS id FROM workspace."user" ORDER BY random() LIMIT $1`,
      [count],
    );
    return rows.map((r) => r.id);
  });
}

/** The year of the recurring series: the range read of one of its weeks is the recurring-heavy one. */
export const RECURRING_FIRST_DAY = '2023-01-02';
export const RECURRING_LAST_DAY = '2023-12-31';

/**
 * `count` weekly series running through RECURRING_FIRST_DAY's year, each on the weekday it starts
 * on and skipping its third week (an EXDATE), with its last occurrence as the service stores it.
 * @param {string} url
 * @param {number} count
 */
export async function seedRecurring(url, count) {
  await withClient(url, async (c) => {
    await c.query('SET search_path TO calendar');
    await c.query(
      `INSERT INTO calendar_event (date, title, type, period, rrule, exdates, series_end, created_at, updated_at)
       SELECT s.day, 'Weekly ' || i, (ARRAY['general', 'check-in', 'grade'])[1 + i % 3],
              (ARRAY['CSA', 'CSP', '3', NULL])[1 + i % 4],
              'FREQ=WEEKLY;UNTIL=' || to_char($2::date, 'YYYYMMDD'), ARRAY[s.day + 14],
              s.day + 7 * (($2::date - s.day) / 7), now(), now()
       FROM generate_series(0, $3 - 1) i
       CROSS JOIN LATERAL (SELECT $1::date + i % 7 AS day) s`,
      [RECURRING_FIRST_DAY, RECURRING_LAST_DAY, count],
    );
    await c.query('VACUUM ANALYZE calendar_event');
  });
}
