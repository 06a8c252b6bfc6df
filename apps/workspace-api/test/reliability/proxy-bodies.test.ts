import { createHash } from 'node:crypto';
import { sendOverWire, stillServing, type WireRequest, type WireResponse } from '@platform/testing';
import { createHarness, type Harness } from '../harness';
import { createRunningSession, type RunningSession } from './running-session';

// Over a real connection: app.inject hands the body over as a string, so it cannot show what
// happens to the request stream the proxy passes on.
let h: Harness;
let origin: string;
let session: RunningSession;
beforeAll(async () => {
  h = await createHarness({ AUTH_FAILURE_LIMIT: '0' });
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
  session = await createRunningSession(h);
});
afterAll(async () => {
  await session?.close();
  await h?.close();
});

const BODY_LIMIT = 1_048_576;
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Bodies of every kind a client might send: each content type, well-formed or not, big or not. */
const BODIES: { name: string; contentType?: string; payload?: string | Buffer }[] = [
  { name: 'json object', contentType: 'application/json', payload: '{"a":1}' },
  { name: 'json array', contentType: 'application/json', payload: '[1,"two",{"three":3}]' },
  { name: 'deeply nested json', contentType: 'application/json', payload: nested(20_000) },
  { name: 'malformed json', contentType: 'application/json', payload: '{"a":' },
  { name: 'json holding NUL', contentType: 'application/json', payload: '{"a":"x\\u0000"}' },
  {
    name: 'json over the body limit',
    contentType: 'application/json',
    payload: JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT + 10) }),
  },
  { name: 'text', contentType: 'text/plain; charset=utf-8', payload: 'hello\u0000there' },
  { name: 'form', contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=%00&a=2' },
  {
    name: 'octet-stream',
    contentType: 'application/octet-stream',
    payload: Buffer.from([0, 1, 2, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
  },
  { name: 'multipart', contentType: 'multipart/form-data; boundary=x', payload: '--x--\r\n' },
  { name: 'unknown type', contentType: 'application/x-what', payload: '<x/>' },
  { name: 'no content type', payload: '{"a":1}' },
  { name: 'no body' },
];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'TRACE'];
const HEX_ID = 'abcdefabcdefabcdefabcdefabcdefab';

/** Proxy addresses a visitor without a grant may try: each must be refused. */
const REFUSED: { name: string; url: string; headers?: Record<string, string> }[] = [
  { name: 'an id that is no id', url: '/kasm/abc/' },
  { name: 'no cookie', url: `/kasm/${HEX_ID}/x` },
  { name: 'a junk cookie', url: `/kasm/${HEX_ID}/`, headers: { cookie: 'kasm_grant=junk' } },
  {
    name: 'a well-formed unknown grant',
    url: `/kasm/${HEX_ID}/a/b?c=d`,
    headers: { cookie: `kasm_grant=${HEX_ID}.secret` },
  },
  { name: 'a token for no session', url: `/kasm/${HEX_ID}/?kasm_token=t` },
  { name: 'no trailing slash', url: `/kasm/${HEX_ID}` },
];

function problemOf(res: WireResponse, method: string): string | null {
  if (res.statusCode < 400 || res.statusCode >= 500) return `answered ${res.statusCode}`;
  if (method === 'HEAD') return null;
  if (!String(res.headers['content-type']).startsWith('application/problem+json'))
    return `answered ${res.statusCode} as ${res.headers['content-type']}`;
  const body = res.json() as { status?: number; code?: string };
  return body.status === res.statusCode && body.code ? null : `a malformed problem: ${res.body}`;
}

describe('the session proxy under every method and body, over a real connection', () => {
  it('refuses each request without a grant with a 4xx problem, and the service keeps serving', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const target of REFUSED)
      for (const method of METHODS)
        for (const body of BODIES) {
          const request: WireRequest = {
            method,
            url: target.url,
            headers: {
              ...target.headers,
              ...(body.contentType ? { 'content-type': body.contentType } : {}),
            },
            payload: body.payload,
          };
          const res = await sendOverWire(origin, request);
          sent += 1;
          const problem = problemOf(res, method);
          if (problem) failures.push(`${method} ${target.name}, ${body.name}: ${problem}`);
          // Any request that brought the process down would fail here, before the next one.
          expect(await stillServing(origin)).toBe(true);
        }
    expect(failures).toEqual([]);
    expect(sent).toBe(REFUSED.length * METHODS.length * BODIES.length);
    process.stdout.write(
      `session proxy: ${sent} refused requests, each followed by /health/live\n`,
    );
  }, 300_000);

  it('streams every kind of body to the container byte for byte, unparsed and past the body limit', async () => {
    const streamed = BODIES.filter((b) => b.payload !== undefined);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      for (const body of streamed) {
        const before = session.received.length;
        const res = await sendOverWire(origin, {
          method,
          url: `/kasm/${session.kasmId}/upload?x=1`,
          headers: {
            cookie: session.cookie,
            ...(body.contentType ? { 'content-type': body.contentType } : {}),
          },
          payload: body.payload,
        });
        expect({ method, body: body.name, status: res.statusCode }).toEqual({
          method,
          body: body.name,
          status: 200,
        });
        const got = session.received[before];
        const bytes = Buffer.from(body.payload as string | Buffer);
        expect(got).toMatchObject({
          method,
          url: '/upload?x=1',
          bytes: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        });
        expect(got.headers['content-type']).toBe(body.contentType);
        // The platform's own credentials never reach the container.
        expect(got.headers.cookie).toBeUndefined();
      }
    expect(await stillServing(origin)).toBe(true);
  }, 120_000);
});
