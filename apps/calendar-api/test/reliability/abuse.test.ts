import { randomBytes } from 'node:crypto';
import { statusesAcrossReplicas, TEST_REDIS_URL, TEST_THROTTLE } from '@platform/testing';
import { loadConfig } from '../../src/config';
import { eventInput } from '../factories';
import { eventually } from '../eventually';
import { createHarness, type Harness } from '../harness';
import { startWebhookServer, type WebhookServer } from '../webhook-server';

const { LIMIT, ADDRESS_LIMIT } = TEST_THROTTLE;
const THROTTLED = { ...TEST_THROTTLE.env, AUTH_FAILURE_WINDOW_SECONDS: '60' };

const report = (line: string) => process.stdout.write(`calendar-api abuse: ${line}\n`);

describe('throttling wrong bearer tokens per (client address, token)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ ...THROTTLED, TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => h.close());

  const write = (token: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
    h.app.inject({
      method: 'POST',
      url: '/api/calendar/add_event',
      payload: eventInput(),
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  it('refuses a token with 429 and Retry-After once it failed LIMIT times from one address; a right token still works', async () => {
    const client = { 'x-forwarded-for': '203.0.113.10' };
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1)
      statuses.push((await write('cal_wrong', client)).statusCode);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    const refused = await write('cal_wrong', client);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });
    // Another client behind the same address is not locked out by those mistakes.
    expect((await write(h.token, client)).statusCode).toBe(201);
    report(
      `${LIMIT + 3} requests with one wrong token from one address: ${statuses.join(' ')} 429, then 201 for a right token`,
    );
  });

  it('refuses an address with 429 past its ceiling of failures, whatever the tokens, the right one too', async () => {
    const client = { 'x-forwarded-for': '203.0.113.12' };
    const statuses: number[] = [];
    for (let i = 0; i < ADDRESS_LIMIT + 1; i += 1)
      statuses.push((await write(`cal_wrong${i}`, client)).statusCode);
    expect(statuses).toEqual([...Array(ADDRESS_LIMIT).fill(401), 429]);
    expect((await write(h.token, client)).statusCode).toBe(429);
    expect((await write(h.token, { 'x-forwarded-for': '203.0.113.13' })).statusCode).toBe(201);
  });

  it('lets at most LIMIT of 200 concurrent wrong tokens be checked', async () => {
    const client = { 'x-forwarded-for': '203.0.113.14' };
    const statuses = (
      await Promise.all(Array.from({ length: 200 }, () => write('cal_wrong', client)))
    ).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - LIMIT);
    report(`200 concurrent wrong tokens from one address: ${LIMIT} checked, the rest 429`);
  });

  it('counts right tokens as nothing and reads stay open to a throttled client', async () => {
    const client = { 'x-forwarded-for': '203.0.113.20' };
    for (let i = 0; i < 20; i += 1) expect((await write(h.token, client)).statusCode).toBe(201);
    for (let i = 0; i < LIMIT; i += 1) await write('cal_wrong', client);
    const read = await h.app.inject({
      method: 'GET',
      url: '/api/calendar/events',
      headers: client,
    });
    expect(read.statusCode).toBe(200);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const spoofing = await createHarness({ ...THROTTLED });
    try {
      for (let i = 0; i < LIMIT; i += 1) {
        const res = await spoofing.app.inject({
          method: 'POST',
          url: '/api/calendar/add_event',
          payload: eventInput(),
          headers: { authorization: 'Bearer cal_wrong', 'x-forwarded-for': `198.51.100.${i}` },
        });
        expect(res.statusCode).toBe(401);
      }
      const next = await spoofing.app.inject({
        method: 'POST',
        url: '/api/calendar/add_event',
        payload: eventInput(),
        headers: { authorization: 'Bearer cal_wrong', 'x-forwarded-for': '198.51.100.99' },
      });
      expect(next.statusCode).toBe(429);
    } finally {
      await spoofing.close();
    }
  });

  it('answers an unknown and a revoked token with the same body', async () => {
    const other = await createHarness();
    try {
      const { apiToken, token } = await other.tokens.create('to revoke');
      await other.tokens.revoke(apiToken.id);
      const send = (t: string) =>
        other.request({ method: 'POST', url: 'add_event', payload: eventInput(), token: t });
      const unknown = await send(`cal_${randomBytes(32).toString('base64url')}`);
      const revoked = await send(token);
      expect(unknown.statusCode).toBe(401);
      expect(revoked.body).toBe(unknown.body);
      expect(revoked.headers['www-authenticate']).toBe(unknown.headers['www-authenticate']);
    } finally {
      await other.close();
    }
  });
});

describe('throttling shared by two replicas through Redis', () => {
  it('counts the failures sent to either replica together', async () => {
    const statuses = await statusesAcrossReplicas({
      start: async (redisEnv) => {
        const h = await createHarness({ ...THROTTLED, ...redisEnv });
        return { replicas: [h.app, await h.otherApp()], close: () => h.close() };
      },
      request: {
        method: 'POST',
        url: '/api/calendar/add_event',
        payload: eventInput(),
        headers: { authorization: 'Bearer cal_wrong' },
      },
      attempts: LIMIT + 2,
    });
    if (!statuses) return report(`Redis test skipped: nothing answers at ${TEST_REDIS_URL}`);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    report(`two replicas sharing Redis, alternating: ${statuses.join(' ')}`);
  });
});

describe('outbound webhooks only reach allowed addresses', () => {
  let server: WebhookServer;
  beforeAll(async () => {
    server = await startWebhookServer();
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('refuses at start a webhook whose address is loopback, private or link-local', () => {
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://10.0.0.5/x',
      'http://169.254.169.254/x',
      'http://[::1]/x',
    ]) {
      expect(() =>
        loadConfig({ DATABASE_URL: 'postgres://x/y', NOTIFY_WEBHOOKS: `slack=${url}` }),
      ).toThrow(/NOTIFY_WEBHOOKS: the URL of slack: .* is a (loopback|private|link-local) address/);
    }
    expect(() =>
      loadConfig({
        DATABASE_URL: 'postgres://x/y',
        NOTIFY_WEBHOOKS: 'slack=http://127.0.0.1:9/x',
        OUTBOUND_ALLOWLIST: '127.0.0.1',
      }),
    ).not.toThrow();
  });

  it('never delivers to a host name that resolves to loopback, and says why', async () => {
    const url = server.url('/hook').replace('127.0.0.1', 'localhost');
    const h = await createHarness({ NOTIFY_WEBHOOKS: `slack=${url}`, OUTBOUND_ALLOWLIST: '' });
    try {
      const event = await h.post('add_event', eventInput());
      await h.request({ method: 'DELETE', url: `event/${event.json().id}` });
      await h.app.workers.dispatcher.runOnce();
      const [row] = await h.db.notification.findMany();
      expect(row.lastError).toMatch(/localhost \((127\.0\.0\.1|::1)\) is a loopback address/);
      expect(server.received).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('follows at most three redirects, and none to a refused address', async () => {
    server.respond((request) => {
      const hop = Number(/\/hop(\d+)/.exec(request.path)?.[1] ?? 0);
      if (request.path === '/to-metadata') {
        return { status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data' } };
      }
      return hop < 10 ? { status: 307, headers: { location: `/hop${hop + 1}` } } : { status: 200 };
    });
    const h = await createHarness({
      NOTIFY_WEBHOOKS: `slack=${server.url('/hop0')},slack-meta=${server.url('/to-metadata')}`,
    });
    try {
      const event = await h.post('add_event', eventInput());
      await h.request({ method: 'DELETE', url: `event/${event.json().id}` });
      await h.app.workers.dispatcher.runOnce();
      await eventually(async () => {
        const rows = await h.db.notification.findMany({ orderBy: { target: 'asc' } });
        expect(rows.map((r) => [r.target, r.lastError])).toEqual([
          ['slack', 'fetch failed: more than 3 redirects'],
          ['slack-meta', expect.stringMatching(/169\.254\.169\.254 is a link-local address/)],
        ]);
      });
      expect(server.on('/hop4')).toEqual([]);
      expect(server.on('/hop3')).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});
