import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { signedInWith, submit } from '../admin/admin-fixtures';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import type { WebClient } from '../web/web-client';
import { followConnectLink, installOwnWorkspaces } from './own-workspaces';
import { connectViewer, type RfbViewer } from './rfb-viewer';

// An administrator's watch of the real Desktop over the socket hop (docs/sharing.md, "An
// administrator's watch"): a stream that drops and comes back within SESSION_WATCH_GRACE_SECONDS
// is the same watch: one watch_started, one watch_ended, and the owner's notice kept meanwhile.
const LONG = 120_000;
const GRACE_S = 8;
jest.setTimeout(6 * LONG);

const cookieOf = (client: WebClient) =>
  [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');

describe('an administrator’s watch of the Desktop', () => {
  let root: string;
  let w: SessionWorld;
  let base: string;
  let kasmId: string;
  let ownerCookie: string;
  let sam: WebClient;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'watch-'));
    w = await createSessionWorld({
      SESSION_SOCKETS_DIR: path.join(root, 's'),
      SESSION_WATCH_GRACE_SECONDS: String(GRACE_S),
    });
    const installed = await installOwnWorkspaces(w, ['Desktop']);
    base = installed.origin;
    const { user_id } = await w.member('ada');
    const launched = await w.h.call('request_kasm', {
      user_id,
      image_id: installed.imageIds.Desktop,
    });
    expect(launched.statusCode).toBe(200);
    kasmId = launched.json().kasm_id;
    await w.waitForStatus(toUuid(kasmId), 'running');
    ownerCookie = await followConnectLink(base, launched.json().kasm_url);
    sam = (await signedInWith(w.h, ['sessions.view', 'sessions.watch'], 'sam')).client;
  });
  afterAll(async () => {
    await closeWorld(w);
    await rm(root, { recursive: true, force: true });
  });

  /** The console's Watch, pressed by sam: the one-use link its page goes on to. */
  async function watchLink(): Promise<string> {
    const page = await submit(sam, '/admin/sessions', `/admin/sessions/${kasmId}/watch`);
    expect(page.statusCode).toBe(200);
    const href = /id="continue" href="([^"]+)"/.exec(page.body)?.[1];
    if (!href) throw new Error('no link on the watch page');
    const url = new URL(href.replaceAll('&amp;', '&'));
    return `${base}${url.pathname}${url.search}`;
  }

  /** A browser's visit to the link with `cookie`: the status and the grant cookie, if any. */
  async function visit(link: string, cookie: string) {
    const res = await fetch(link, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    return { status: res.status, grant: (res.headers.get('set-cookie') ?? '').split(';')[0] };
  }

  const stream = (cookie: string): Promise<RfbViewer> =>
    connectViewer(`${base.replace('http', 'ws')}/kasm/${kasmId}/websockify`, {
      origin: base,
      cookie,
    });

  const audited = async (operation: string) => {
    const log = await w.h.call('get_audit_log', { operation });
    return (
      log.json().events as { target: { id: string } | null; after: Record<string, unknown> }[]
    ).filter((e) => e.target?.id?.replaceAll('-', '') === kasmId);
  };

  /** What the owner's page is told about watchers. */
  const ownerSees = async () => {
    const res = await fetch(`${base}/kasm/${kasmId}/_session/standing`, {
      headers: { cookie: ownerCookie },
    });
    return ((await res.json()) as { watchers: { username: string }[] }).watchers;
  };
  const watchers = async () => {
    const all = await w.h.call('get_kasm_participants', { kasm_id: kasmId });
    return all.json().participants.filter((p: { role: string }) => p.role === 'watch');
  };

  it('keeps one watch through a stream that drops and comes back within the grace: one start, one end, the owner’s notice kept', async () => {
    const before = {
      started: (await audited('watch_started')).length,
      ended: (await audited('watch_ended')).length,
    };
    const opened = await visit(await watchLink(), cookieOf(sam));
    const cookie = opened.grant;
    const first = await waitFor(() => stream(cookie), LONG);
    await waitFor(async () => {
      if ((await audited('watch_started')).length === before.started)
        throw new Error('no watch_started yet');
    }, LONG);

    // A blip: the stream drops, and the page dials again a moment later.
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = await stream(cookie);
    expect(await ownerSees()).toEqual([expect.objectContaining({ username: 'sam' })]);
    await new Promise((resolve) => setTimeout(resolve, GRACE_S * 1000 + 1000));
    expect(await ownerSees()).toHaveLength(1);
    expect((await audited('watch_started')).length).toBe(before.started + 1);
    expect((await audited('watch_ended')).length).toBe(before.ended);

    // Gone for good: the watch ends after the grace, dated when its last stream closed.
    const closedAt = Date.now();
    again.close();
    const ended = await waitFor(async () => {
      const events = await audited('watch_ended');
      if (events.length === before.ended) throw new Error('no watch_ended yet');
      return events;
    }, LONG);
    expect(ended).toHaveLength(before.ended + 1);
    expect((await audited('watch_started')).length).toBe(before.started + 1);
    const at = Math.max(...ended.map((e) => Date.parse(String(e.after.ended))));
    expect(Math.abs(at - closedAt)).toBeLessThan(GRACE_S * 1000 - 1000);
    expect(await ownerSees()).toEqual([]);
    expect(await watchers()).toEqual([]);
  });
});
