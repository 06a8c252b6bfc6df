import { eventInput } from '../../test/factories';
import { createHarness, DEFAULT_NOW, type Harness } from '../../test/harness';

const DAY = 86_400_000;

/** Every route of the API that is not a read, from the OpenAPI document, with ids filled in. */
async function writeRoutes(h: Harness): Promise<{ method: string; url: string }[]> {
  const spec = (await h.app.inject({ url: '/docs/json' })).json();
  return Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(
    ([path, operations]) =>
      Object.keys(operations)
        .map((method) => method.toUpperCase())
        .filter((method) => !['GET', 'HEAD', 'OPTIONS'].includes(method))
        .map((method) => ({ method, url: path.replace(/\{[^}]+\}/g, '1') })),
  );
}

describe.each(['writes', 'all'] as const)('token scopes with CALENDAR_AUTH=%s', (mode) => {
  let h: Harness;
  let readToken: string;
  beforeAll(async () => {
    h = await createHarness({ CALENDAR_AUTH: mode });
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.reset();
    ({ token: readToken } = await h.tokens.create('reader', { scope: 'read' }));
  });

  it.each([
    ['POST', 'add_event', eventInput()],
    ['POST', 'add', { text: '[Mon]: Intro' }],
    ['PATCH', 'event/1', { title: 'x' }],
    ['PUT', 'edit/Quiz', { description: 'x' }],
    ['DELETE', 'event/1', undefined],
    ['DELETE', 'delete/Quiz', undefined],
  ] as const)(
    'answers 403 TOKEN_READ_ONLY to a read token on %s /%s',
    async (method, url, payload) => {
      await h.post('add_event', { date: '2025-03-03', title: 'Quiz' });
      const before = await h.database.snapshot();
      const res = await h.request({ method, url, payload, token: readToken });
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="calendar-api", error="insufficient_scope"',
      );
      expect(res.json()).toMatchObject({ status: 403, code: 'TOKEN_READ_ONLY' });
      expect(await h.database.snapshot()).toEqual(before);
    },
  );

  it('refuses a read token on every route that is not a read, whichever it is', async () => {
    const routes = await writeRoutes(h);
    expect(routes.length).toBeGreaterThanOrEqual(10);
    for (const { method, url } of routes) {
      // Slack signs its requests instead: no bearer token is ever looked at there.
      if (url === '/api/calendar/slack/events') continue;
      const res = await h.request({ method: method as 'POST', url, payload: {}, token: readToken });
      expect(`${method} ${url} ${res.statusCode} ${res.json().code}`).toBe(
        `${method} ${url} 403 TOKEN_READ_ONLY`,
      );
    }
  });

  it('lets a read token read, and a write token write', async () => {
    expect((await h.request({ method: 'GET', url: 'events', token: readToken })).statusCode).toBe(
      200,
    );
    expect((await h.post('add_event', eventInput())).statusCode).toBe(201);
  });

  it('refuses an expired token like an unknown one, from the instant it expires', async () => {
    const { apiToken, token } = await h.tokens.create('soon expired');
    // The app's clock is fixed in the past, where the service would refuse to issue this expiry.
    const expiresAt = new Date(DEFAULT_NOW.getTime() + DAY);
    await h.db.apiToken.update({ where: { id: apiToken.id }, data: { expiresAt } });
    const add = () => h.request({ method: 'POST', url: 'add_event', payload: eventInput(), token });
    h.setNow(new Date(expiresAt.getTime() - 1));
    expect((await add()).statusCode).toBe(201);
    h.setNow(expiresAt);
    const res = await add();
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_INVALID');
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="calendar-api", error="invalid_token"',
    );
  });

  it('asks for a write token to list the secret feed addresses, a read', async () => {
    const anonymous = await h.request({ method: 'GET', url: 'feeds', token: null });
    expect(anonymous.statusCode).toBe(401);
    const reader = await h.request({ method: 'GET', url: 'feeds', token: readToken });
    expect(reader.statusCode).toBe(403);
    expect((await h.get('feeds')).statusCode).toBe(200);
  });
});
