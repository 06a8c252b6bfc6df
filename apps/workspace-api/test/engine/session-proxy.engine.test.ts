import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { toUuid } from '@platform/schemas';
import WebSocket from 'ws';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(3 * LONG);

let w: SessionWorld;
let base: string;
let kasmId: string;
let kasmUrl: string;
let userId: string;

beforeAll(async () => {
  w = await createSessionWorld();
  base = await w.h.app.listen({ port: 0, host: '127.0.0.1' });
  // Grants are minted only on the session URL's host: the zone names this server's.
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1' },
  });
  userId = (await w.member('viewer')).user_id;
  const requested = await w.request({ user_id: userId });
  kasmId = requested.kasm_id;
  kasmUrl = requested.kasm_url;
  await w.waitForStatus(toUuid(kasmId), 'running');
});
afterAll(() => closeWorld(w));

/** kasm_url names the zone's host; the test reaches the same path on the listening server. */
const onServer = (url: string) => {
  const parsed = new URL(url);
  return `${base}${parsed.pathname}${parsed.search}`;
};

/** A new connect link (each one works once). */
async function freshLink(): Promise<string> {
  const status = await w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: userId });
  return status.json().kasm_url;
}

async function signIn(url?: string): Promise<string> {
  url ??= await freshLink();
  const res = await fetch(onServer(url), { redirect: 'manual' });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe(`/kasm/${kasmId}/`);
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/i);
  expect(cookie).toMatch(new RegExp(`Path=/kasm/${kasmId}/`));
  return cookie.split(';')[0];
}

function echo(url: string, headers: Record<string, string>, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { origin: base, ...headers } });
    socket.once('open', () => socket.send(message));
    socket.once('message', (data) => {
      socket.close();
      resolve(String(data));
    });
    socket.once('unexpected-response', (_req, res) =>
      reject(new Error(`refused with ${res.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

interface RawUpgrade {
  status: number;
  headers: http.IncomingHttpHeaders;
  socket?: Duplex;
  /** What the server sent after the handshake, read with it. */
  head?: Buffer;
  body: string;
}

/** A WebSocket handshake written by hand, so the test knows its key and sees its answer as is. */
function rawUpgrade(path: string, headers: Record<string, string>): Promise<RawUpgrade> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', origin: base, ...headers },
    });
    req.once('upgrade', (res, socket, head) =>
      resolve({ status: 101, headers: res.headers, socket, head, body: '' }),
    );
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

/** The payload of the first unmasked text frame (under 64 KiB) a server sends. */
function firstFrame({ socket, head }: RawUpgrade): Promise<string> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const take = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const short = buffered[1] & 0x7f;
      const [length, start] = short === 126 ? [buffered.readUInt16BE(2), 4] : [short, 2];
      if (buffered.length >= start + length)
        resolve(buffered.subarray(start, start + length).toString());
    };
    socket!.on('data', take);
    take(head ?? Buffer.alloc(0));
  });
}

describe('the session proxy', () => {
  it('exchanges the kasm_url token for a cookie, then serves the workspace page through it', async () => {
    const cookie = await signIn(kasmUrl);
    const page = await fetch(`${base}/kasm/${kasmId}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Platform test workspace</title>');
    const deep = await fetch(`${base}/kasm/${kasmId}/some/path?x=1`, { headers: { cookie } });
    expect(await deep.text()).toBe('/some/path\n');
  });

  it('carries WebSocket traffic both ways for the cookie holder', async () => {
    const cookie = await signIn();
    const wsUrl = `${base.replace('http', 'ws')}/kasm/${kasmId}/websockify`;
    expect(await echo(wsUrl, { cookie }, 'ping through the proxy')).toBe('ping through the proxy');
    await expect(echo(wsUrl, {}, 'no cookie')).rejects.toThrow('refused with 401');
  });

  it('joins the browser to the container’s own handshake, bytes untouched', async () => {
    const cookie = await signIn();
    const key = randomBytes(16).toString('base64');
    const upgraded = await rawUpgrade(`/kasm/${kasmId}/headers`, {
      cookie,
      'sec-websocket-key': key,
      'sec-websocket-version': '13',
    });
    expect(upgraded.status).toBe(101);
    const accept = createHash('sha1')
      .update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    expect(upgraded.headers['sec-websocket-accept']).toBe(accept);
    const seen = JSON.parse(await firstFrame(upgraded)) as Record<string, string>;
    upgraded.socket!.destroy();
    // The container answered the browser's own key: the proxy piped the handshake, not a copy.
    expect(seen['sec-websocket-key']).toBe(key);
    expect(seen.authorization).toMatch(/^Basic /);
    expect(seen.cookie).toBeUndefined();
  });

  it('refuses an upgrade whose path would leave the container, before reaching it', async () => {
    const cookie = await signIn();
    const refused = await rawUpgrade(`/kasm/${kasmId}//elsewhere.invalid/x`, {
      cookie,
      'sec-websocket-key': randomBytes(16).toString('base64'),
      'sec-websocket-version': '13',
    });
    expect(refused.status).toBe(400);
    expect((JSON.parse(refused.body) as { code: string }).code).toBe('SESSION_PATH_INVALID');
  });

  it('carries large binary messages intact both ways', async () => {
    const cookie = await signIn();
    const payload = randomBytes(4 * 1024 ** 2);
    const echoed = await new Promise<Buffer>((resolve, reject) => {
      const socket = new WebSocket(`${base.replace('http', 'ws')}/kasm/${kasmId}/websockify`, {
        headers: { origin: base, cookie },
      });
      socket.once('open', () => socket.send(payload));
      socket.once('message', (data) => {
        socket.close();
        resolve(data as Buffer);
      });
      socket.once('error', reject);
    });
    expect(echoed.equals(payload)).toBe(true);
  });

  it('never shows the container the grant cookie, and sends the container password itself', async () => {
    const cookie = await signIn();
    const res = await fetch(`${base}/kasm/${kasmId}/headers`, {
      headers: { cookie: `${cookie}; theme=dark` },
    });
    expect(res.status).toBe(200);
    const headers = (await res.json()) as Record<string, string>;
    const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } });
    expect(headers.cookie).toBe('theme=dark');
    const basic = Buffer.from(`kasm_user:${row.containerSecret}`).toString('base64');
    expect(headers.authorization).toBe(`Basic ${basic}`);
    const env = await fetch(`${base}/kasm/${kasmId}/env`, { headers: { cookie } });
    expect(((await env.json()) as Record<string, string>).VNC_PW).toBe(row.containerSecret);
  });

  it('answers 401 without the cookie and 403 with a wrong or another session’s cookie', async () => {
    const none = await fetch(`${base}/kasm/${kasmId}/`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { code: string }).code).toBe('SESSION_CREDENTIALS_MISSING');
    const cookie = await signIn();
    const forged = cookie.replace(/\.[^.]+$/, '.forged');
    const wrong = await fetch(`${base}/kasm/${kasmId}/`, { headers: { cookie: forged } });
    expect(wrong.status).toBe(403);

    const other = await w.request({ user_id: (await w.member('neighbour')).user_id });
    await w.waitForStatus(toUuid(other.kasm_id), 'running');
    const crossed = await fetch(`${base}/kasm/${other.kasm_id}/`, { headers: { cookie } });
    expect(crossed.status).toBe(403);
  });

  it('refuses a forged token, and a link replaced by get_kasm_status', async () => {
    const forged = await fetch(`${base}/kasm/${kasmId}/?kasm_token=nope`, { redirect: 'manual' });
    expect(forged.status).toBe(403);
    const status = (await w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: userId })).json();
    const old = await fetch(onServer(kasmUrl), { redirect: 'manual' });
    expect(old.status).toBe(403);
    await signIn(status.kasm_url);
  });

  it('stops admitting at once when the session is destroyed: its grants are gone', async () => {
    const cookie = await signIn();
    await w.h.call('destroy_kasm', { kasm_id: kasmId, user_id: userId });
    const res = await fetch(`${base}/kasm/${kasmId}/`, { headers: { cookie } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('SESSION_ACCESS_DENIED');
  });
});
