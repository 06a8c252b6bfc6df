import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import {
  closeWorld,
  createSessionWorld,
  sweepFor,
  type SessionWorld,
} from '../engine/session-fixture';
import { followConnectLink, installOwnWorkspaces, viewThroughProxy } from './own-workspaces';
import type { RfbViewer } from './rfb-viewer';

// The idle limit on the real Desktop workspace (Xvnc behind websockify), through the proxy: an
// open viewer that only asks for screen updates is no one's input, a moving pointer is.
const LONG = 120_000;
jest.setTimeout(4 * LONG);

let w: SessionWorld;
let base: string;
let imageId: string;
beforeAll(async () => {
  w = await createSessionWorld({ SESSION_KEEPALIVE_SECONDS: '300' });
  ({
    origin: base,
    imageIds: { Desktop: imageId },
  } = await installOwnWorkspaces(w, ['Desktop']));
  const limited = await w.h.call('update_image', {
    target_image: { image_id: imageId, idle_limit_seconds: 8, idle_action: 'stop' },
  });
  expect(limited.statusCode).toBe(200);
});
afterAll(() => closeWorld(w));

async function runningDesktop(username: string) {
  const { user_id } = await w.member(username);
  const { kasm_id } = await w.request({ user_id, image_id: imageId });
  await w.waitForStatus(toUuid(kasm_id), 'running');
  return { kasmId: kasm_id, userId: user_id };
}

/** A viewer on the session's stream through the proxy, signed in by a fresh connect link. */
async function view(kasmId: string, userId: string): Promise<RfbViewer> {
  const link = (await w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: userId })).json();
  return viewThroughProxy(base, kasmId, await followConnectLink(base, link.kasm_url));
}

it('stops a desktop whose open viewer only asks for screen updates, and spares one whose pointer moves', async () => {
  const [watched, worked] = await Promise.all([
    runningDesktop('watcher'),
    runningDesktop('worker'),
  ]);
  const watcher = await view(watched.kasmId, watched.userId);
  const worker = await view(worked.kasmId, worked.userId);
  // Both tabs stay open and keep asking for updates, as noVNC does; one person moves the mouse.
  let x = 0;
  const ticking = setInterval(() => {
    watcher.requestUpdate();
    worker.requestUpdate();
    x = (x + 7) % worker.width;
    worker.movePointer(x, 100);
  }, 1000);
  try {
    await waitFor(async () => {
      await w.h.app.sessionWorker.round();
      const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(watched.kasmId) } });
      if (row.status !== 'stopped') throw new Error(`still ${row.status}`);
    }, LONG);
    // Another limit's worth of rounds with input: the worked desktop stays.
    await sweepFor(w, 9000);
  } finally {
    clearInterval(ticking);
    watcher.close();
    worker.close();
  }
  const watchedRow = await w.h.db.kasm.findUniqueOrThrow({
    where: { id: toUuid(watched.kasmId) },
  });
  // The viewer's requests wrote no input at all.
  expect(watchedRow.lastInputAt).toBeNull();
  const workedRow = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(worked.kasmId) } });
  expect(workedRow.status).toBe('running');
  expect(workedRow.lastInputAt).not.toBeNull();
});
