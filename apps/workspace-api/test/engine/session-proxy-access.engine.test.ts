import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import WebSocket from 'ws';
import { buildApp } from '../../src/app';
import { VALID_PASSWORD } from '../factories';
import { signIn as signInToPage, webClient } from '../web/web-client';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(4 * LONG);

const GRANT_TTL_SECONDS = 600;
let w: SessionWorld;
let base: string;
let owner: { user_id: string; username: string };
let kasmId: string;

beforeAll(async () => {
  w = await createSessionWorld({ SESSION_GRANT_TTL_SECONDS: String(GRANT_TTL_SECONDS) });
  base = await w.h.app.listen({ port: 0, host: '127.0.0.1' });
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1' },
  });
  owner = await w.member('owner');
  kasmId = (await w.request({ user_id: owner.user_id })).kasm_id;
  await w.waitForStatus(toUuid(kasmId), 'running');
});
afterAll(() => closeWorld(w));

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

async function freshLink(id = kasmId, userId = owner.user_id): Promise<string> {
  const status = await w.h.call('get_kasm_status', { kasm_id: id, user_id: userId });
  return pathOf(status.json().kasm_url);
}

/** GET on the test server; `cookie` is sent as is. */
const get = (path: string, cookie?: string, on = base) =>
  fetch(`${on}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

async function grantCookie(link?: string, cookie?: string, on = base): Promise<string> {
  const res = await get(link ?? (await freshLink()), cookie, on);
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

async function problemOf(res: Response) {
  return (await res.json()) as { code: string; detail?: string; title?: string };
}

async function loginCookie(username: string): Promise<string> {
  const client = webClient(w.h);
  expect((await signInToPage(client, username, VALID_PASSWORD)).statusCode).toBe(303);
  return `ws_session=${client.cookies.get('ws_session')}`;
}

interface OpenSocket {
  socket: WebSocket;
  first: Promise<string>;
  closed: Promise<void>;
}

function openSocket(url: string, headers: Record<string, string>): Promise<OpenSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    const first = new Promise<string>((done) => socket.once('message', (d) => done(String(d))));
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('open', () => resolve({ socket, first, closed }));
    socket.once('unexpected-response', (_req, res) =>
      reject(new Error(`refused with ${res.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

const wsUrl = (on: string, id: string, path = 'websockify') =>
  `${on.replace('http', 'ws')}/kasm/${id}/${path}`;

describe('connect links', () => {
  it('work once: a second use of the same link is refused with 403', async () => {
    const link = await freshLink();
    await grantCookie(link);
    const again = await get(link);
    expect(again.status).toBe(403);
    const problem = await problemOf(again);
    expect(problem.code).toBe('SESSION_ACCESS_DENIED');
    expect(JSON.stringify(problem)).toMatch(/used already/);
  });

  it('are spent by exactly one of many concurrent uses', async () => {
    const link = await freshLink();
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(link)));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 403, 403, 403, 403, 403]);
  });

  it('mint grants only on the host name of kasm_url, and a refused link stays unspent', async () => {
    const link = await freshLink();
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${base}${link}`);
      httpRequest({
        host: url.hostname,
        port: url.port,
        path: link,
        headers: { host: 'elsewhere.test' },
      })
        .once('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .once('error', reject)
        .end();
    });
    expect(status).toBe(403);
    await grantCookie(link);
  });
});

describe('the platform’s cookies', () => {
  const platform = 'ws_session=login; ws_form=form; theme=dark';

  it('never reach the container over HTTP', async () => {
    const grant = await grantCookie();
    const res = await get(`/kasm/${kasmId}/headers`, `${grant}; ${platform}`);
    expect(((await res.json()) as { cookie?: string }).cookie).toBe('theme=dark');
  });

  it('never reach the container over WebSocket', async () => {
    const grant = await grantCookie();
    const open = await openSocket(wsUrl(base, kasmId, 'headers'), {
      origin: base,
      cookie: `${grant}; ${platform}`,
    });
    const seen = JSON.parse(await open.first) as { cookie?: string };
    open.socket.close();
    expect(seen.cookie).toBe('theme=dark');
  });

  it('cannot be set by the container, whose own cookies stay under the session’s path', async () => {
    const grant = await grantCookie();
    const set = [
      'kasm_grant=evil; Path=/',
      'ws_session=evil; Path=/',
      'ws_form=evil',
      'theme=dark; Path=/; Domain=127.0.0.1; HttpOnly',
      'deep=1; Path=/app',
      'bare=1',
    ];
    const query = set.map((c) => `c=${encodeURIComponent(c)}`).join('&');
    const res = await get(`/kasm/${kasmId}/set-cookie?${query}`, grant);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([
      `theme=dark; Path=/kasm/${kasmId}/; HttpOnly`,
      `deep=1; Path=/kasm/${kasmId}/app`,
      `bare=1; Path=/kasm/${kasmId}/`,
    ]);
  });
});

describe('a browser signed in to the platform', () => {
  it('enters only its own user’s sessions, by link and by grant', async () => {
    const stranger = await loginCookie((await w.member('stranger')).username);
    const byLink = await get(await freshLink(), stranger);
    expect(byLink.status).toBe(403);
    expect((await problemOf(byLink)).code).toBe('SESSION_ACCESS_DENIED');

    const grant = await grantCookie();
    const byGrant = await get(`/kasm/${kasmId}/`, `${grant}; ${stranger}`);
    expect(byGrant.status).toBe(403);
    await expect(
      openSocket(wsUrl(base, kasmId), { origin: base, cookie: `${grant}; ${stranger}` }),
    ).rejects.toThrow('refused with 403');

    const own = await loginCookie(owner.username);
    const ownGrant = await grantCookie(undefined, own);
    expect((await get(`/kasm/${kasmId}/`, `${ownGrant}; ${own}`)).status).toBe(200);
  });
});

describe('grants', () => {
  it('last SESSION_GRANT_TTL_SECONDS, never past the session’s time limit', async () => {
    const before = Date.now();
    const res = await get(await freshLink());
    const expires = /Expires=([^;]+)/i.exec(res.headers.get('set-cookie') ?? '')?.[1];
    const grantId = (res.headers.get('set-cookie') ?? '').split('=')[1].split('.')[0];
    const row = await w.h.db.kasmGrant.findUniqueOrThrow({ where: { id: toUuid(grantId) } });
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + GRANT_TTL_SECONDS * 1000);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + GRANT_TTL_SECONDS * 1000);
    expect(new Date(expires ?? 0).getTime()).toBe(
      Math.floor(row.expiresAt.getTime() / 1000) * 1000,
    );

    const limit = new Date(Date.now() + 60_000);
    await w.h.db.kasm.update({ where: { id: toUuid(kasmId) }, data: { hardExpiresAt: limit } });
    const capped = await grantCookie();
    const cappedRow = await w.h.db.kasmGrant.findUniqueOrThrow({
      where: { id: toUuid(capped.split('=')[1].split('.')[0]) },
    });
    expect(cappedRow.expiresAt).toEqual(limit);
  });

  it('are refused once expired, and swept', async () => {
    const grant = await grantCookie();
    const id = toUuid(grant.split('=')[1].split('.')[0]);
    await w.h.db.kasmGrant.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1) } });
    const refused = await waitFor(async () => {
      const res = await get(`/kasm/${kasmId}/`, grant);
      if (res.status !== 403) throw new Error(`still answered ${res.status}`);
      return problemOf(res);
    }, LONG);
    expect(refused.detail ?? refused.title).toMatch(/expired/);
    await w.h.app.sessionWorker.round();
    expect(await w.h.db.kasmGrant.findUnique({ where: { id } })).toBeNull();
  });
});

describe('WebSocket upgrades', () => {
  it('are refused with 403 from another origin or none', async () => {
    const grant = await grantCookie();
    await expect(
      openSocket(wsUrl(base, kasmId), { origin: 'http://evil.test', cookie: grant }),
    ).rejects.toThrow('refused with 403');
    await expect(openSocket(wsUrl(base, kasmId), { cookie: grant })).rejects.toThrow(
      'refused with 403',
    );
    const own = await openSocket(wsUrl(base, kasmId), { origin: base, cookie: grant });
    own.socket.close();
    await own.closed;
  });
});

describe('destroying a session', () => {
  let replica: FastifyInstance;
  afterAll(() => replica?.close());

  it('ends its grants and WebSockets at once here, and on another replica within seconds', async () => {
    replica = await buildApp(w.h.config);
    const replicaBase = await replica.listen({ port: 0, host: '127.0.0.1' });
    const here = await grantCookie();
    const there = await grantCookie(undefined, undefined, replicaBase);
    const local = await openSocket(wsUrl(base, kasmId), { origin: base, cookie: here });
    const remote = await openSocket(wsUrl(replicaBase, kasmId), {
      origin: replicaBase,
      cookie: there,
    });
    let localClosed = false;
    void local.closed.then(() => (localClosed = true));

    await w.h.call('destroy_kasm', { kasm_id: kasmId, user_id: owner.user_id });
    expect(await w.h.db.kasmGrant.count({ where: { kasmId: toUuid(kasmId) } })).toBe(0);
    await waitFor(async () => expect(localClosed).toBe(true), LONG);
    await waitFor(async () => expect(remote.socket.readyState).toBe(WebSocket.CLOSED), LONG);
  });
});
