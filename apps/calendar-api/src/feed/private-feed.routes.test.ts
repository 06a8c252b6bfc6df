import ICAL from 'ical.js';
import { addEvent } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

const LIMIT = 3;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ CALENDAR_AUTH: 'all', AUTH_FAILURE_LIMIT: String(LIMIT) });
});
afterAll(() => h.close());
beforeEach(() => h.reset());

interface Issued {
  feed: { id: number; name: string; type: string | null; period: string | null };
  url: string;
  webcal_url: string;
}

async function issue(body: object = { name: 'Google' }): Promise<Issued> {
  const res = await h.post('feeds', body);
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** What a calendar app sends: the address, no token. */
const subscribe = (url: string, headers: Record<string, string> = {}) => {
  const { pathname, search } = new URL(url);
  return h.request({ method: 'GET', url: `${pathname}${search}`, token: null, headers });
};

const summaries = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics))
    .getAllSubcomponents('vevent')
    .map((vevent) => new ICAL.Event(vevent).summary);

describe('GET /private.ics?token= (CALENDAR_AUTH=all)', () => {
  it('serves the feed without a bearer token, while the open feed asks for one', async () => {
    await addEvent(h, { title: 'Unit 5 quiz', date: '2025-03-07', type: 'grade' });
    const { url, webcal_url } = await issue();
    expect(url).toMatch(
      /^http:\/\/localhost:3002\/api\/calendar\/private\.ics\?token=calfeed_[\w-]{43}$/,
    );
    expect(webcal_url).toBe(url.replace(/^http:/, 'webcal:'));
    const open = await h.request({ method: 'GET', url: 'calendar.ics', token: null });
    expect(open.statusCode).toBe(401);

    const res = await subscribe(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(summaries(res.body)).toEqual(['Unit 5 quiz']);
    // The very same calendar as the feed a token reads.
    expect(res.body).toBe((await h.get('calendar.ics')).body);
    expect(res.headers.etag).toBe((await h.get('calendar.ics')).headers.etag);
  });

  it('serves the filters of its address, whatever the query adds', async () => {
    await addEvent(h, { title: 'Quiz', type: 'grade', period: 'CSA' });
    await addEvent(h, { title: 'Lab', type: 'check-in', period: 'CSA' });
    await addEvent(h, { title: 'Test', type: 'grade', period: 'CSP' });
    const csa = await issue({ name: 'CSA class', period: 'CSA' });
    const grades = await issue({ name: 'Grades of CSP', type: 'grade', period: 'CSP' });
    const all = await issue({ name: 'Everything' });
    expect(csa.feed).toMatchObject({ name: 'CSA class', type: null, period: 'CSA' });
    expect(summaries((await subscribe(csa.url)).body)).toEqual(['Quiz', 'Lab']);
    expect(summaries((await subscribe(`${csa.url}&period=CSP`)).body)).toEqual(['Quiz', 'Lab']);
    expect(summaries((await subscribe(grades.url)).body)).toEqual(['Test']);
    expect(summaries((await subscribe(all.url)).body)).toEqual(['Quiz', 'Lab', 'Test']);
  });

  it('answers 304 to a calendar app that has the current version', async () => {
    await addEvent(h, { title: 'Quiz' });
    const { url } = await issue();
    const { etag } = (await subscribe(url)).headers;
    const cached = await subscribe(url, { 'if-none-match': etag as string });
    expect(cached.statusCode).toBe(304);
    expect(cached.headers['cache-control']).toBe('private, no-cache');
  });

  it('stops answering the old address the moment it is rotated, and answers the new one', async () => {
    const old = await issue();
    expect((await subscribe(old.url)).statusCode).toBe(200);
    const res = await h.post(`feeds/${old.feed.id}/rotate`, {});
    expect(res.statusCode).toBe(200);
    const rotated: Issued = res.json();
    expect(rotated.feed).toMatchObject({ id: old.feed.id, rotated_at: expect.any(String) });
    expect(rotated.url).not.toBe(old.url);
    const gone = await subscribe(old.url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'FEED_NOT_FOUND' });
    expect((await subscribe(rotated.url)).statusCode).toBe(200);
  });

  it('answers a wrong, malformed or deleted secret with the same 404', async () => {
    const { feed, url } = await issue();
    const wrong = url.replace(
      /token=calfeed_./,
      (m) => m.slice(0, -1) + (m.endsWith('A') ? 'B' : 'A'),
    );
    const deleted = await issue({ name: 'soon deleted' });
    expect(
      (await h.request({ method: 'DELETE', url: `feeds/${deleted.feed.id}` })).statusCode,
    ).toBe(200);
    const answers = await Promise.all(
      [wrong, `${url}x`, 'http://x/api/calendar/private.ics?token=cal_guess', deleted.url].map(
        (u) => subscribe(u),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'FEED_NOT_FOUND',
        detail: 'No calendar feed at this address',
      });
    }
    expect((await subscribe(url)).statusCode).toBe(200);
    expect((await h.get('feeds')).json().map((f: { id: number }) => f.id)).toEqual([feed.id]);
  });

  it('refuses a client that guessed wrong too often, as it refuses wrong tokens', async () => {
    const { url } = await issue();
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await subscribe(`${url}wrong`)).statusCode).toBe(404);
    }
    const refused = await subscribe(`${url}wrong`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('TOO_MANY_REQUESTS');
  });

  it('lists the addresses without their secrets, and never stores a secret in clear', async () => {
    const { url } = await issue({ name: 'Apple', type: 'grade' });
    const secret = new URL(url).searchParams.get('token') as string;
    const list = await h.get('feeds');
    expect(list.json()).toEqual([
      {
        id: expect.any(Number),
        name: 'Apple',
        type: 'grade',
        period: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        rotated_at: null,
      },
    ]);
    const rows = await h.database.query<{ secret_hash: string }>(
      'SELECT * FROM calendar.feed_address',
    );
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers 404 to rotating or deleting an id that matches no address', async () => {
    expect((await h.post('feeds/999/rotate', {})).json()).toMatchObject({
      status: 404,
      code: 'FEED_NOT_FOUND',
    });
    expect((await h.request({ method: 'DELETE', url: 'feeds/999' })).statusCode).toBe(404);
  });

  it('validates a new address', async () => {
    for (const body of [
      {},
      { name: ' ' },
      { name: 'x', period: 'p'.repeat(33) },
      { name: 'x', type: '' },
    ]) {
      expect((await h.post('feeds', body)).statusCode).toBe(400);
    }
  });
});
