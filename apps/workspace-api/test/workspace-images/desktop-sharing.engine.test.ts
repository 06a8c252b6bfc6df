import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { connectClipboardViewer, type ClipboardViewer } from './clipboard-viewer';
import { followConnectLink, installOwnWorkspaces } from './own-workspaces';
import { desktopExec, POINTER } from './x-display';

// Sharing the real Desktop workspace, through the proxy, both ways it is reached: over the
// socket hop, and Kasm-like (HTTPS on 6901 with Basic auth, no hop). Kasm's join flow as pykasm
// speaks it (JSON bodies with api_key and api_key_secret), our share links, and the proxy as
// referee: a view joiner's random input reaches nothing; control given live moves the pointer.
const LONG = 120_000;
jest.setTimeout(8 * LONG);

interface Shared {
  w: SessionWorld;
  base: string;
  imageId: string;
  ownerId: string;
  kasmId: string;
  shareId: string;
  ownerCookie: string;
  exec: (cmd: string) => Promise<string>;
}

async function sharedDesktop(env: Record<string, string>): Promise<Shared> {
  const w = await createSessionWorld(env);
  const { origin: base, imageIds } = await installOwnWorkspaces(w, ['Desktop']);
  const { user_id: ownerId } = await w.member('ada');
  const launched = await w.h.call('request_kasm', {
    user_id: ownerId,
    image_id: imageIds.Desktop,
    enable_sharing: true,
  });
  expect(launched.statusCode).toBe(200);
  const { kasm_id: kasmId, kasm_url, share_id: shareId } = launched.json();
  expect(shareId).toMatch(/^[0-9a-f]{32}$/);
  await w.waitForStatus(toUuid(kasmId), 'running');
  const exec = await desktopExec(w, kasmId);
  const ownerCookie = await followConnectLink(base, kasm_url);
  return { w, base, imageId: imageIds.Desktop, ownerId, kasmId, shareId, ownerCookie, exec };
}

/** A link's visit as a browser makes it: its grant cookie, or the refusal's status. */
async function visit(base: string, link: string) {
  const url = new URL(link);
  const res = await fetch(`${base}${url.pathname}${url.search}`, { redirect: 'manual' });
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] };
}

const stream = (d: Shared, cookie: string, shared = true): Promise<ClipboardViewer> =>
  waitFor(
    () =>
      connectClipboardViewer(
        `${d.base.replace('http', 'ws')}/kasm/${d.kasmId}/websockify`,
        { origin: d.base, cookie },
        { shared },
      ),
    LONG,
  );

/** A small seeded generator: the same 10,000 messages every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** A random input message of each kind a person or a client's resize sends. */
function randomMessage(next: (n: number) => number): Buffer {
  switch (next(6)) {
    case 0: {
      const m = Buffer.alloc(8); // KeyEvent
      m[0] = 4;
      m[1] = next(2);
      m.writeUInt32BE(next(2) ? 0x20 + next(0x5f) : 0xff00 + next(0x100), 4);
      return m;
    }
    case 1: {
      const m = Buffer.alloc(6); // PointerEvent
      m[0] = 5;
      m[1] = next(8);
      m.writeUInt16BE(next(1280), 2);
      m.writeUInt16BE(next(800), 4);
      return m;
    }
    case 2: {
      const text = Buffer.from(`pasted ${next(1e6)}`, 'latin1'); // ClientCutText
      const m = Buffer.alloc(8);
      m[0] = 6;
      m.writeInt32BE(text.length, 4);
      return Buffer.concat([m, text]);
    }
    case 3: {
      const m = Buffer.alloc(24); // SetDesktopSize, one screen
      m[0] = 251;
      m.writeUInt16BE(640 + next(640), 2);
      m.writeUInt16BE(480 + next(320), 4);
      m[6] = 1;
      m.writeUInt16BE(640, 16);
      m.writeUInt16BE(480, 18);
      return m;
    }
    case 4: {
      const m = Buffer.alloc(12); // QEMU extended KeyEvent
      m[0] = 255;
      m[3] = next(2);
      m.writeUInt32BE(0x61 + next(26), 4);
      m.writeUInt32BE(30 + next(20), 8);
      return m;
    }
    default: {
      const m = Buffer.alloc(4); // xvp: shutdown, reboot, reset
      m[0] = 250;
      m[2] = 1;
      m[3] = 2 + next(3);
      return m;
    }
  }
}

describe.each([
  ['over the socket hop', true],
  ['Kasm-like: HTTPS on 6901 with Basic, no hop', false],
])('a shared Desktop %s', (_name, hop) => {
  let root: string;
  let d: Shared;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'share-'));
    d = await sharedDesktop(hop ? { SESSION_SOCKETS_DIR: path.join(root, 's') } : {});
  });
  afterAll(async () => {
    await closeWorld(d?.w);
    await rm(root, { recursive: true, force: true });
  });

  it('speaks Kasm’s join flow: share_id in get_kasm_status, join_kasm for a user and, where allowed, anonymously', async () => {
    const status = await d.w.h.call('get_kasm_status', { kasm_id: d.kasmId, user_id: d.ownerId });
    expect(status.json().share_id).toBe(d.shareId);
    const { user_id: bobId } = await d.w.member('bob');
    const joined = await d.w.h.call('join_kasm', { share_id: d.shareId, user_id: bobId });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ kasm_id: d.kasmId, role: 'view' });
    const first = await visit(d.base, joined.json().kasm_url);
    expect(first.status).toBe(303);
    // One browser per join: the same link again is refused.
    expect((await visit(d.base, joined.json().kasm_url)).status).toBe(403);
    const viewer = await stream(d, first.cookie);
    await viewer.roundTrip();
    viewer.close();

    const participants = await d.w.h.call('get_kasm_participants', { kasm_id: d.kasmId });
    expect(participants.json().participants).toContainEqual(
      expect.objectContaining({ user_id: bobId, username: 'bob', role: 'view' }),
    );
    const unknown = await d.w.h.call('join_kasm', { share_id: 'f'.repeat(32), user_id: bobId });
    expect(unknown.statusCode).toBe(404);
    const anonymous = await d.w.h.call('join_kasm', { share_id: d.shareId });
    expect(anonymous.statusCode).toBe(403);
    const allowed = await d.w.h.call('update_image', {
      target_image: { image_id: d.imageId, allow_anonymous_join: true },
    });
    expect(allowed.statusCode).toBe(200);
    const anon = await d.w.h.call('join_kasm', { share_id: d.shareId });
    expect(anon.statusCode).toBe(200);
    expect((await visit(d.base, anon.json().kasm_url)).status).toBe(303);
  });

  it('lets nothing of a view joiner’s reach the desktop: 10,000 random input messages, an exclusive ClientInit, an unknown type', async () => {
    const owner = await stream(d, d.ownerCookie);
    await d.exec(`printf before | xclip -i -selection clipboard >/dev/null 2>&1`);
    const before = await d.exec(POINTER);
    const link = await d.w.h.call('create_kasm_share_link', { kasm_id: d.kasmId, role: 'view' });
    expect(link.statusCode).toBe(200);
    expect(link.json().url).toContain('kasm_share=');
    const { cookie, status } = await visit(d.base, link.json().url);
    expect(status).toBe(303);
    // Exclusive: were it passed, Xvnc would disconnect every other client, the owner first.
    const viewer = await stream(d, cookie, false);
    const next = random(40);
    for (let i = 0; i < 10_000; i++) viewer.send(randomMessage(next));
    // The server handles a stream's messages in order: once this answer came, all were seen.
    await viewer.roundTrip();
    await owner.roundTrip();
    expect(await d.exec(POINTER)).toBe(before);
    expect(await d.exec('xclip -o -selection clipboard 2>/dev/null')).toBe('before');

    viewer.send(Buffer.from([7, 0, 0, 0]));
    await waitFor(async () => expect(viewer.isClosed()).toBe(true), LONG);
    await owner.roundTrip();
    expect(owner.isClosed()).toBe(false);
    owner.close();
  });

  it('gives a joiner control live, with no reconnect, takes it back, and closes the stream when the link is revoked', async () => {
    const link = await d.w.h.call('create_kasm_share_link', { kasm_id: d.kasmId, role: 'view' });
    const { cookie } = await visit(d.base, link.json().url);
    const viewer = await stream(d, cookie);
    const { participants } = (
      await d.w.h.call('get_kasm_participants', { kasm_id: d.kasmId })
    ).json();
    const me = participants.find(
      (p: { share_id: string }) => p.share_id === link.json().share.share_id,
    );
    const move = (x: number, y: number) => {
      const m = Buffer.alloc(6);
      m[0] = 5;
      m.writeUInt16BE(x, 2);
      m.writeUInt16BE(y, 4);
      viewer.send(m);
    };
    move(111, 222);
    await viewer.roundTrip();
    expect(await d.exec(POINTER)).not.toMatch(/^111 222 /);

    const granted = await d.w.h.call('set_kasm_participant_role', {
      kasm_id: d.kasmId,
      participant_id: me.participant_id,
      role: 'control',
    });
    expect(granted.statusCode).toBe(200);
    await waitFor(
      async () => {
        move(333, 444);
        await viewer.roundTrip();
        expect(await d.exec(POINTER)).toMatch(/^333 444 /);
      },
      LONG,
      250,
    );
    expect(viewer.isClosed()).toBe(false);

    await d.w.h.call('set_kasm_participant_role', {
      kasm_id: d.kasmId,
      participant_id: me.participant_id,
      role: 'view',
    });
    move(555, 666);
    await viewer.roundTrip();
    expect(await d.exec(POINTER)).toMatch(/^333 444 /);

    const revoked = await d.w.h.call('revoke_kasm_share_link', {
      kasm_id: d.kasmId,
      share_id: link.json().share.share_id,
    });
    expect(revoked.statusCode).toBe(200);
    await waitFor(async () => expect(viewer.isClosed()).toBe(true), LONG, 50);
    expect((await visit(d.base, link.json().url)).status).toBe(403);
  });
});
