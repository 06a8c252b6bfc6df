import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ CALENDAR_NAME: 'CSA <plan> & "more"' });
});
afterAll(() => h.close());

const get = (url: string) => h.request({ method: 'GET', url, token: null });

describe('GET /', () => {
  it('is the calendar page, with a fresh style nonce in its policy and its meta tag', async () => {
    const [first, second] = [await get('/'), await get('/')];
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    const nonce = /'nonce-([\w-]+)'/.exec(String(first.headers['content-security-policy']))?.[1];
    expect(nonce).toBeDefined();
    expect(first.body).toContain(`<meta name="csp-nonce" content="${nonce}" />`);
    expect(second.body).not.toContain(nonce);
    expect(first.headers['content-security-policy']).toContain("script-src 'self'");
    expect(first.headers['x-frame-options']).toBe('DENY');
  });

  it('escapes the calendar name and tells the script the auth mode and the API', async () => {
    const { body } = await get('/');
    expect(body).toContain('<h1>CSA &lt;plan&gt; &amp; &quot;more&quot;</h1>');
    expect(body).toContain('data-auth="writes" data-api="/api/calendar"');
    expect(body).toContain('href="/api/calendar/calendar.ics"');
    expect(body).toContain('href="/docs"');
  });
});

describe('GET /assets/{file}', () => {
  it.each([
    ['fullcalendar.js', 'text/javascript; charset=utf-8', 'FullCalendar'],
    ['calendar.js', 'text/javascript; charset=utf-8', 'FullCalendar.Calendar'],
    ['calendar.css', 'text/css; charset=utf-8', '.legend'],
  ])('serves %s from this service', async (file, type, text) => {
    const res = await get(`/assets/${file}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body).toContain(text);
  });

  it('answers 404 problem details for any other file', async () => {
    const res = await get('/assets/..%2Fconfig.ts');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
