// The baselines every ratio is measured against: bare Fastify routes (no logger, no auth, no
// validation beyond what parsing needs) that do a scenario's database work with raw `pg` in one
// round trip and answer the same wire form with a response schema, plus a route with no database.
// Started by the bench as its own process, like the services: `node server.mjs` with
// DATABASE_URL and PORT.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_MAX ?? 10),
});
const app = Fastify({ logger: false });

const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
const UserSchema = {
  type: 'object',
  properties: {
    user_id: str,
    username: str,
    first_name: str,
    last_name: str,
    phone: str,
    organization: str,
    notes: str,
    locked: { type: 'boolean' },
    disabled: { type: 'boolean' },
    realm: str,
    groups: { type: 'array', items: { type: 'object', properties: { group_id: str, name: str } } },
    created: nullableStr,
    last_session: nullableStr,
    password_set_date: nullableStr,
  },
};
const EventSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    date: str,
    title: str,
    description: str,
    type: str,
    period: nullableStr,
    created_at: str,
    updated_at: str,
    source: {
      anyOf: [
        { type: 'object', properties: { channel: nullableStr, message_id: nullableStr } },
        { type: 'null' },
      ],
    },
  },
};
const userReply = { response: { 200: { type: 'object', properties: { user: UserSchema } } } };
const eventsReply = { response: { 200: { type: 'array', items: EventSchema } } };

const USER_GROUPS = `COALESCE((SELECT json_agg(json_build_object('group_id', replace(g.id::text, '-', ''), 'name', g.name)
                                        ORDER BY ug.created_at)
                             FROM workspace.user_group ug JOIN workspace."group" g ON g.id = ug.group_id
                             WHERE ug.user_id = u.id), '[]') AS groups`;

const toUser = (u) => ({
  user_id: u.id.replace(/-/g, ''),
  username: u.username,
  first_name: u.first_name,
  last_name: u.last_name,
  phone: u.phone,
  organization: u.organization,
  notes: u.notes,
  locked: u.locked,
  disabled: u.disabled,
  realm: u.realm,
  groups: u.groups,
  created: u.created_at.toISOString(),
  last_session: u.last_session?.toISOString() ?? null,
  password_set_date: u.password_set_date?.toISOString() ?? null,
});

// The same SELECT as calendar-api's (dates and timestamps as text, reformatted without parsing).
const isoFromUtcText = (text) =>
  `${text.slice(0, 10)}T${text.slice(11, 19)}.${text.length > 20 ? text.slice(20).padEnd(3, '0') : '000'}Z`;
const toEvent = (e) => ({
  id: e.id,
  date: e.date,
  title: e.title,
  description: e.description,
  type: e.type,
  period: e.period,
  created_at: isoFromUtcText(e.created_at),
  updated_at: isoFromUtcText(e.updated_at),
  source: e.from_chat ? { channel: e.source_channel, message_id: e.source_message_id } : null,
});

app.get(
  '/hello',
  { schema: { response: { 200: { type: 'object', properties: { hello: str } } } } },
  async () => ({ hello: 'world' }),
);

app.post('/get_user', { schema: userReply }, async (request) => {
  const { rows } = await pool.query({
    name: 'get_user',
    text: `SELECT u.*, ${USER_GROUPS} FROM workspace."user" u WHERE u.id = $1`,
    values: [request.body.user_id],
  });
  return { user: toUser(rows[0]) };
});

app.post('/update_user', { schema: userReply }, async (request) => {
  const { user_id: id, first_name: first, last_name: last } = request.body;
  const { rows } = await pool.query({
    name: 'update_user',
    text: `WITH u AS (UPDATE workspace."user" SET first_name = $2, last_name = $3, updated_at = now() WHERE id = $1 RETURNING *)
           SELECT u.*, ${USER_GROUPS} FROM u`,
    values: [id, first, last],
  });
  return { user: toUser(rows[0]) };
});

const EVENT_COLUMNS = `id, date::text AS date, title, description, type, period, source_channel, source_message_id,
  chat_message_id IS NOT NULL AS from_chat, (created_at AT TIME ZONE 'UTC')::text AS created_at,
  (updated_at AT TIME ZONE 'UTC')::text AS updated_at`;

app.get('/events/range', { schema: eventsReply }, async (request) => {
  const { rows } = await pool.query({
    name: 'range',
    text: `SELECT ${EVENT_COLUMNS} FROM calendar.calendar_event e WHERE date BETWEEN $1 AND $2 ORDER BY e.date, e.id`,
    values: [request.query.start, request.query.end],
  });
  return rows.map(toEvent);
});

app.get('/events/:date', { schema: eventsReply }, async (request) => {
  const { rows } = await pool.query({
    name: 'on_date',
    text: `SELECT ${EVENT_COLUMNS} FROM calendar.calendar_event e WHERE date = $1 ORDER BY e.date, e.id`,
    values: [request.params.date],
  });
  return rows.map(toEvent);
});

app.get('/health/ready', async () => {
  await pool.query('SELECT 1');
  return { status: 'ok' };
});

const shutdown = () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
