import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import WebSocket from 'ws';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(4 * LONG);

const MAX_SOCKETS = 2;
const IDLE_SECONDS = 3;
let w: SessionWorld;
let base: string;
let kasmId: string;
let userId: string;

beforeAll(async () => {
  w = await createSessionWorld({
    SESSION_GRANT_MAX_WEBSOCKETS: String(MAX_SOCKETS),
    SESSION_WEBSOCKET_IDLE_SECONDS: String(IDLE_SECONDS),
  });
  base = await w.h.app.listen({ port: 0, host: '127.0.0.1' });
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1' },
  });
  userId = (await w.member()).user_id;
  kasmId = (await w.request({ user_id: userId })).kasm_id;
  await w.waitForStatus(toUuid(kasmId), 'running');
});
afterAll(() => closeWorld(w));

async function grantCookie(): Promise<string> {
  const status = await w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: userId });
  const link = new URL(status.json().kasm_url as string);
  const res = await fetch(`${base}${link.pathname}${link.search}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

interface Opened {
  socket: WebSocket;
  closed: Promise<number>;
}

/** A WebSocket to the session's echo server; rejects with the status of a refused upgrade. */
function open(cookie: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/kasm/${kasmId}/echo`, {
      headers: { origin: base, cookie },
    });
    const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now())));
    socket.once('open', () => resolve({ socket, closed }));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += String(chunk)));
      res.on('end', () => reject(new Error(`refused with ${res.statusCode} ${body}`)));
    });
    socket.once('error', reject);
  });
}

const echo = (socket: WebSocket, text: string) =>
  new Promise<string>((resolve) => {
    socket.once('message', (data) => resolve(String(data)));
    socket.send(text);
  });

describe('WebSockets through the proxy', () => {
  it('are at most SESSION_GRANT_MAX_WEBSOCKETS per grant: 429 beyond, another grant has its own, and a closed one frees its place', async () => {
    const grant = await grantCookie();
    const held = await Promise.all(Array.from({ length: MAX_SOCKETS }, () => open(grant)));
    await expect(open(grant)).rejects.toThrow(/refused with 429 .*SESSION_WEBSOCKETS_EXCEEDED/);

    const other = await open(await grantCookie());
    expect(await echo(other.socket, 'other grant')).toBe('other grant');

    held[0].socket.close();
    await held[0].closed;
    const again = await waitFor(() => open(grant), LONG);
    expect(await echo(again.socket, 'again')).toBe('again');
    for (const s of [held[1], other, again]) s.socket.close();
  });

  it('are closed after SESSION_WEBSOCKET_IDLE_SECONDS without traffic either way, counted from the last', async () => {
    const opened = await open(await grantCookie());
    const start = Date.now();
    // Traffic for longer than the idle limit: a limit counted from the opening would end it.
    // The last ping's sending: the proxy saw it, and its echo, no earlier (the echo's arrival
    // here may be late on a busy machine, so it bounds nothing).
    let lastSent = start;
    while (Date.now() - start < IDLE_SECONDS * 1500) {
      lastSent = Date.now();
      expect(await echo(opened.socket, 'ping')).toBe('ping');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(opened.socket.readyState).toBe(WebSocket.OPEN);
    const closedAt = await opened.closed;
    // Timers never fire early; 50 ms for the clocks of two processes' sockets.
    expect(closedAt - lastSent).toBeGreaterThanOrEqual(IDLE_SECONDS * 1000 - 50);
  });
});
