import type { FastifyInstance } from 'fastify';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import WebSocket from 'ws';
import { buildApp } from '../../src/app';
import { VALID_PASSWORD } from '../factories';
import { signIn, webClient, type WebClient } from '../web/web-client';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(6 * LONG);

let w: SessionWorld;
let base: string;
let replica: FastifyInstance;
let replicaBase: string;

beforeAll(async () => {
  // Every case refuses a sign-in link from this one address: not a guesser to throttle.
  w = await createSessionWorld({ LOGIN_FAILURE_LIMIT: '0' });
  base = await w.h.app.listen({ port: 0, host: '127.0.0.1' });
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1' },
  });
  replica = await buildApp(w.h.config);
  replicaBase = await replica.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await replica?.close();
  await closeWorld(w);
});

const get = (path: string, cookie?: string, on = base) =>
  fetch(`${on}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

interface Owner {
  user_id: string;
  username: string;
}

async function freshLink(kasmId: string, owner: Owner): Promise<string> {
  const status = await w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: owner.user_id });
  const url = new URL(status.json().kasm_url as string);
  return `${url.pathname}${url.search}`;
}

async function grantCookie(link: string, on = base): Promise<string> {
  const res = await get(link, undefined, on);
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

function openSocket(url: string, headers: Record<string, string>): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) =>
      reject(new Error(`refused with ${res.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

const wsUrl = (on: string, kasmId: string) =>
  `${on.replace('http', 'ws')}/kasm/${kasmId}/websockify`;

async function signedInPage(username: string): Promise<WebClient> {
  const client = webClient(w.h);
  expect((await signIn(client, username, VALID_PASSWORD)).statusCode).toBe(303);
  expect((await client.get('/')).body).toContain(`Signed in as <strong>${username}</strong>`);
  return client;
}

async function signInLink(owner: Owner): Promise<string> {
  const res = await w.h.call('get_login', { target_user: { user_id: owner.user_id } });
  expect(res.statusCode).toBe(200);
  return new URL(res.json().url as string).pathname;
}

async function useSignInLink(path: string) {
  const client = webClient(w.h);
  await client.get(path);
  const token = decodeURIComponent(path.split('/').pop() ?? '');
  return client.post('/sign-in/link', { token, _csrf: client.csrf() });
}

/** A running session of a new user, entered every way there is, here and on the replica. */
async function enteredEveryWay() {
  const owner: Owner = await w.member();
  const kasmId = (await w.request({ user_id: owner.user_id })).kasm_id;
  await w.waitForStatus(toUuid(kasmId), 'running');
  const here = await grantCookie(await freshLink(kasmId, owner));
  const there = await grantCookie(await freshLink(kasmId, owner), replicaBase);
  const local = await openSocket(wsUrl(base, kasmId), { origin: base, cookie: here });
  const remote = await openSocket(wsUrl(replicaBase, kasmId), {
    origin: replicaBase,
    cookie: there,
  });
  expect((await get(`/kasm/${kasmId}/`, there, replicaBase)).status).toBe(200);
  return {
    owner,
    kasmId,
    here,
    there,
    local,
    remote,
    unspentLink: await freshLink(kasmId, owner),
    page: await signedInPage(owner.username),
    signInLink: await signInLink(owner),
  };
}

const cases: [string, (owner: Owner) => Promise<{ statusCode: number }>][] = [
  [
    'update_user disables the user',
    (owner) => w.h.call('update_user', { target_user: { user_id: owner.user_id, disabled: true } }),
  ],
  [
    'update_user locks the user',
    (owner) => w.h.call('update_user', { target_user: { user_id: owner.user_id, locked: true } }),
  ],
  [
    'update_user changes the password',
    (owner) =>
      w.h.call('update_user', {
        target_user: { user_id: owner.user_id, password: 'An0ther-password!' },
      }),
  ],
  [
    'logout_user signs the user out',
    (owner) => w.h.call('logout_user', { target_user: { user_id: owner.user_id } }),
  ],
  [
    'delete_user removes the user',
    (owner) => w.h.call('delete_user', { target_user: { user_id: owner.user_id }, force: true }),
  ],
];

describe('revoking a user', () => {
  it.each(cases)(
    'ends grants, unspent links, WebSockets and page sign-ins at once here, and on another replica within seconds, when %s',
    async (_name, revoke) => {
      const e = await enteredEveryWay();
      let localClosed = false;
      e.local.once('close', () => (localClosed = true));

      expect((await revoke(e.owner)).statusCode).toBe(200);

      // At once, here: nothing of the user's is left to enter with.
      expect(await w.h.db.kasmGrant.count({ where: { kasmId: toUuid(e.kasmId) } })).toBe(0);
      expect([403, 404]).toContain((await get(`/kasm/${e.kasmId}/`, e.here)).status);
      expect([403, 404]).toContain((await get(e.unspentLink)).status);
      expect((await e.page.get('/')).body).not.toContain('Signed in as');
      expect((await useSignInLink(e.signInLink)).statusCode).not.toBe(303);
      await waitFor(async () => expect(localClosed).toBe(true), LONG);
      // Within seconds on the replica, which was not told.
      await waitFor(async () => expect(e.remote.readyState).toBe(WebSocket.CLOSED), LONG);
      await waitFor(
        async () =>
          expect([403, 404]).toContain(
            (await get(`/kasm/${e.kasmId}/`, e.there, replicaBase)).status,
          ),
        LONG,
      );
    },
  );

  it('lets a user signed out by logout_user or a password change back in with a new link', async () => {
    const e = await enteredEveryWay();
    await w.h.call('logout_user', { target_user: { user_id: e.owner.user_id } });
    const back = await grantCookie(await freshLink(e.kasmId, e.owner));
    expect((await get(`/kasm/${e.kasmId}/`, back)).status).toBe(200);
    await w.h.call('update_user', {
      target_user: { user_id: e.owner.user_id, password: 'An0ther-password!' },
    });
    expect((await get(`/kasm/${e.kasmId}/`, back)).status).toBe(403);
    const again = await grantCookie(await freshLink(e.kasmId, e.owner));
    expect((await get(`/kasm/${e.kasmId}/`, again)).status).toBe(200);
    e.local.close();
    e.remote.close();
  });

  it('keeps the page sign-ins and sign-in links of a disabled user ended once re-enabled', async () => {
    const e = await enteredEveryWay();
    const user = { user_id: e.owner.user_id };
    await w.h.call('update_user', { target_user: { ...user, disabled: true } });
    await w.h.call('update_user', { target_user: { ...user, disabled: false } });
    expect((await e.page.get('/')).body).not.toContain('Signed in as');
    expect((await useSignInLink(e.signInLink)).statusCode).toBe(401);
    expect([403, 404]).toContain((await get(`/kasm/${e.kasmId}/`, e.here)).status);
    e.local.close();
    e.remote.close();
  });
});

describe('admission', () => {
  it('checks the owner: a user disabled or locked in the database, with no one told, is refused within seconds on every replica', async () => {
    for (const state of [{ disabled: true }, { locked: true }]) {
      const e = await enteredEveryWay();
      // Straight into the row: no service call, so no revocation was fired anywhere.
      await w.h.db.user.update({ where: { id: toUuid(e.owner.user_id) }, data: state });
      for (const [on, cookie] of [
        [base, e.here],
        [replicaBase, e.there],
      ]) {
        const refused = await waitFor(async () => {
          const res = await get(`/kasm/${e.kasmId}/`, cookie, on);
          if (res.status !== 403) throw new Error(`still answered ${res.status}`);
          return (await res.json()) as { code: string };
        }, LONG);
        expect(refused.code).toBe('SESSION_ACCESS_DENIED');
      }
      await waitFor(async () => expect(e.local.readyState).toBe(WebSocket.CLOSED), LONG);
      await waitFor(async () => expect(e.remote.readyState).toBe(WebSocket.CLOSED), LONG);
      // A link minted now is refused too: the owner may not enter.
      expect((await get(await freshLink(e.kasmId, e.owner))).status).toBe(403);
    }
  });
});
