// The baselines every ratio is measured against: bare Fastify routes (no logger, no auth, no
// validation beyond what parsing needs) that do a scenario's database work with raw `pg` in the
// fewest round trips (get_user's two statements side by side) and answer the same wire form with a response schema, plus a route with no database.
// Started by the bench as its own process, like the services: `node server.mjs` with
// DATABASE_URL and PORT.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { HAS_LIVE_SESSIONS, STATEMENTS } from './statements.mjs';

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
    kasms: { type: 'array', items: { type: 'object' } },
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
    // Nullable objects as type lists, as the services' serializer writes them: an `anyOf` makes
    // fast-json-stringify run Ajv on every value to pick its branch.
    source: {
      type: ['object', 'null'],
      properties: { channel: nullableStr, message_id: nullableStr },
    },
    recurrence: {
      type: ['object', 'null'],
      properties: { rrule: str, exdates: { type: 'array', items: str } },
    },
  },
};
const userReply = { response: { 200: { type: 'object', properties: { user: UserSchema } } } };
const eventsReply = { response: { 200: { type: 'array', items: EventSchema } } };

// workspace-api's statements and wire form (a user without live sessions has no kasms).
const wireId = (/** @type {string} */ uuid) => uuid.replace(/-/g, '');
/**
 * A row of GET_USER and UPDATE_USER (statements.mjs).
 * @typedef {object} UserRow
 * @property {string} id
 * @property {string} username
 * @property {string} firstName
 * @property {string} lastName
 * @property {string} phone
 * @property {string} organization
 * @property {string} notes
 * @property {boolean} locked
 * @property {boolean} disabled
 * @property {string} realm
 * @property {{ id: string, name: string }[]} groups
 * @property {Date} createdAt
 * @property {Date | null} lastSession
 * @property {Date | null} passwordSetDate
 */
const toUser = (/** @type {UserRow} */ u) => ({
  user_id: wireId(u.id),
  username: u.username,
  first_name: u.firstName,
  last_name: u.lastName,
  phone: u.phone,
  organization: u.organization,
  notes: u.notes,
  locked: u.locked,
  disabled: u.disabled,
  realm: u.realm,
  groups: u.groups.map((g) => ({ group_id: wireId(g.id), name: g.name })),
  created: u.createdAt.toISOString(),
  last_session: u.lastSession?.toISOString() ?? null,
  password_set_date: u.passwordSetDate?.toISOString() ?? null,
});

// calendar-api's SELECT (dates and timestamps as text, reformatted without parsing), and its wire
// form. Recurring events are answered as their master rows, not expanded: the scenarios read days
// outside the series' year, where the series half finds nothing.
const isoFromUtcText = (/** @type {string} */ text) =>
  `${text.slice(0, 10)}T${text.slice(11, 19)}.${text.length > 20 ? text.slice(20).padEnd(3, '0') : '000'}Z`;
/**
 * A row of the events statements (statements.mjs).
 * @typedef {object} EventRow
 * @property {number} id
 * @property {string} date
 * @property {string} title
 * @property {string} description
 * @property {string} type
 * @property {string | null} period
 * @property {string} createdAt
 * @property {string} updatedAt
 * @property {boolean} fromChat
 * @property {string | null} sourceChannel
 * @property {string | null} sourceMessageId
 * @property {string | null} rrule
 * @property {string[] | null} exdates
 */
const toEvent = (/** @type {EventRow} */ e) => ({
  id: e.id,
  date: e.date,
  title: e.title,
  description: e.description,
  type: e.type,
  period: e.period,
  created_at: isoFromUtcText(e.createdAt),
  updated_at: isoFromUtcText(e.updatedAt),
  source: e.fromChat ? { channel: e.sourceChannel, message_id: e.sourceMessageId } : null,
  recurrence: e.rrule === null ? null : { rrule: e.rrule, exdates: e.exdates },
});

app.get(
  '/hello',
  { schema: { response: { 200: { type: 'object', properties: { hello: str } } } } },
  async () => ({ hello: 'world' }),
);

/** @typedef {import('fastify').FastifyRequest<{ Body: { user_id: string } }>} GetUserRequest */
// As get_user does: the user, and beside it whether a session of theirs is live.
app.post('/get_user', { schema: userReply }, async (/** @type {GetUserRequest} */ request) => {
  const values = [request.body.user_id];
  const [{ rows }] = await Promise.all([
    pool.query({ name: 'get_user', text: STATEMENTS['get_user by id'], values }),
    pool.query({ name: 'has_live_sessions', text: HAS_LIVE_SESSIONS, values }),
  ]);
  return { user: Object.assign(toUser(rows[0]), { kasms: [] }) };
});

/**
 * @typedef {import('fastify').FastifyRequest<{
 *   Body: { user_id: string, first_name?: string, last_name?: string },
 * }>} UpdateUserRequest
 */
app.post(
  '/update_user',
  { schema: userReply },
  async (/** @type {UpdateUserRequest} */ request) => {
    const { user_id: id, first_name: first, last_name: last } = request.body;
    const { rows } = await pool.query({
      name: 'update_user',
      text: STATEMENTS.update_user,
      values: [
        id,
        null,
        first,
        last,
        null,
        null,
        null,
        null,
        null,
        null,
        // The audit event the service writes with the change.
        randomUUID(),
        'api_key',
        'bench',
        'bench',
        'api',
        'update_user',
        'user',
        request.ip,
        request.headers['user-agent'] ?? null,
      ],
    });
    return { user: toUser(rows[0]) };
  },
);

/** @typedef {import('fastify').FastifyRequest<{ Querystring: { start: string, end: string } }>} RangeRequest */
app.get('/events/range', { schema: eventsReply }, async (/** @type {RangeRequest} */ request) => {
  const { rows } = await pool.query({
    name: 'range',
    text: STATEMENTS['GET /events/range'],
    values: [request.query.start, request.query.end],
  });
  return rows.map(toEvent);
});

/** @typedef {import('fastify').FastifyRequest<{ Params: { date: string } }>} DateRequest */
app.get('/events/:date', { schema: eventsReply }, async (/** @type {DateRequest} */ request) => {
  const { rows } = await pool.query({
    name: 'on_date',
    text: STATEMENTS['GET /events/{date}'],
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
