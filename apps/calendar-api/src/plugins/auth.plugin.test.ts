import { eventInput } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

describe('bearer-token auth (CALENDAR_AUTH=writes, the default)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const addEvent = (token: string | null, headers: Record<string, string> = {}) =>
    h.request({ method: 'POST', url: 'add_event', payload: eventInput(), token, headers });

  it.each([
    ['POST', 'add', { text: '[Mon]: Intro' }],
    ['POST', 'add_event', eventInput()],
    ['PUT', 'edit/Quiz', { description: 'x' }],
    ['DELETE', 'delete/Quiz', undefined],
    ['PATCH', 'event/1', { title: 'x' }],
    ['DELETE', 'event/1', undefined],
  ] as const)(
    'answers 401 TOKEN_MISSING to %s /%s without a token',
    async (method, url, payload) => {
      const res = await h.request({ method, url, payload, token: null });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="calendar-api"');
      expect(res.json()).toMatchObject({ status: 401, code: 'TOKEN_MISSING' });
    },
  );

  it('refuses before reading the body, so an invalid body still gets 401', async () => {
    const res = await h.request({
      method: 'POST',
      url: 'add_event',
      payload: { date: '2025-02-30' },
      token: null,
    });
    expect(res.statusCode).toBe(401);
  });

  it('answers 401 TOKEN_INVALID to an unknown token and to another scheme', async () => {
    const unknown = await addEvent('cal_not-a-real-token');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('TOKEN_INVALID');
    expect(unknown.headers['www-authenticate']).toBe(
      'Bearer realm="calendar-api", error="invalid_token"',
    );
    const basic = await addEvent(null, {
      authorization: `Basic ${Buffer.from(`x:${h.token}`).toString('base64')}`,
    });
    expect(basic.json().code).toBe('TOKEN_MISSING');
  });

  it('accepts a valid token, with the scheme in any case', async () => {
    expect((await addEvent(h.token)).statusCode).toBe(201);
    expect((await addEvent(null, { authorization: `bearer ${h.token}` })).statusCode).toBe(201);
  });

  it('refuses a revoked token from the very next request', async () => {
    const { apiToken, token } = await h.tokens.create('soon revoked');
    expect((await addEvent(token)).statusCode).toBe(201);
    await h.tokens.revoke(apiToken.id);
    const res = await addEvent(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_INVALID');
    expect(await h.db.calendarEvent.count()).toBe(1);
  });

  it('leaves reads open', async () => {
    expect((await h.request({ method: 'GET', url: 'events', token: null })).statusCode).toBe(200);
    expect(
      (await h.request({ method: 'GET', url: 'events/2025-03-03', token: null })).statusCode,
    ).toBe(200);
  });

  it('never asks the health checks for a token', async () => {
    expect((await h.request({ method: 'GET', url: '/health/ready', token: null })).statusCode).toBe(
      200,
    );
  });
});

describe('CALENDAR_AUTH=off', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ CALENDAR_AUTH: 'off' });
  });
  afterAll(() => h.close());

  it('allows writes without a token', async () => {
    const res = await h.request({
      method: 'POST',
      url: 'add_event',
      payload: eventInput(),
      token: null,
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('CALENDAR_AUTH=all', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ CALENDAR_AUTH: 'all' });
  });
  afterAll(() => h.close());

  it('asks reads for a token too', async () => {
    expect((await h.request({ method: 'GET', url: 'events', token: null })).statusCode).toBe(401);
    expect((await h.request({ method: 'GET', url: 'events' })).statusCode).toBe(200);
  });
});
