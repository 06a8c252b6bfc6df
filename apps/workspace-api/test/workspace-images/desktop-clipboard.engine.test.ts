import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { connectClipboardViewer, type ClipboardViewer } from './clipboard-viewer';
import { followConnectLink, installOwnWorkspaces } from './own-workspaces';
import { desktopExec } from './x-display';

// The clipboard policy on the real Desktop workspace's stream, through the proxy, over the
// socket hop and over TLS to 6901 with Basic (the path Kasm's images take): a raw viewer sends
// and receives cut text while the desktop's X clipboard is read and set with xclip.
const LONG = 120_000;
jest.setTimeout(6 * LONG);

interface Desktop {
  w: SessionWorld;
  base: string;
  imageId: string;
  kasmId: string;
  cookie: string;
  exec: (cmd: string) => Promise<string>;
}

async function runningDesktop(env: Record<string, string>): Promise<Desktop> {
  const w = await createSessionWorld(env);
  const { origin: base, imageIds } = await installOwnWorkspaces(w, ['Desktop']);
  const { user_id } = await w.member('ada');
  const { kasm_id, kasm_url } = await w.request({ user_id, image_id: imageIds.Desktop });
  await w.waitForStatus(toUuid(kasm_id), 'running');
  const exec = await desktopExec(w, kasm_id, { trim: false });
  const cookie = await followConnectLink(base, kasm_url);
  return { w, base, imageId: imageIds.Desktop, kasmId: kasm_id, cookie, exec };
}

const setPolicy = async (d: Desktop, policy: Record<string, unknown>) => {
  const res = await d.w.h.call('update_image', {
    target_image: { image_id: d.imageId, ...policy },
  });
  expect(res.statusCode).toBe(200);
};

const view = (d: Desktop): Promise<ClipboardViewer> =>
  waitFor(
    () =>
      connectClipboardViewer(`${d.base.replace('http', 'ws')}/kasm/${d.kasmId}/websockify`, {
        origin: d.base,
        cookie: d.cookie,
      }),
    LONG,
  );

const desktopClipboard = (d: Desktop) => d.exec('xclip -o -selection clipboard 2>/dev/null');
const setDesktopClipboard = (d: Desktop, text: string) =>
  d.exec(`printf '%s' '${text}' | xclip -i -selection clipboard >/dev/null 2>&1`);

async function refusals(d: Desktop) {
  return d.w.h.db.auditEvent.findMany({
    where: { operation: 'clipboard_refused', targetId: d.kasmId },
    orderBy: { createdAt: 'asc' },
  });
}

describe.each([
  ['over the socket hop', true],
  ['over TLS to 6901 with Basic, no hop', false],
])('the clipboard policy %s', (_name, hop) => {
  let root: string;
  let d: Desktop;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'clip-'));
    d = await runningDesktop(hop ? { SESSION_SOCKETS_DIR: path.join(root, 's') } : {});
  });
  afterAll(async () => {
    await closeWorld(d?.w);
    await rm(root, { recursive: true, force: true });
  });

  it('keeps clipboard text from the browser out of the desktop when up is refused, and lets it in when allowed', async () => {
    await setDesktopClipboard(d, 'before');
    await setPolicy(d, { allow_kasm_clipboard_up: false });
    const refused = await view(d);
    refused.sendCutText('refused text');
    // The server handles messages in order: once the update asked after it came, it was seen.
    await refused.roundTrip();
    refused.close();
    expect(await desktopClipboard(d)).toBe('before');

    await setPolicy(d, { allow_kasm_clipboard_up: true, max_clipboard_bytes: 20 });
    const allowed = await view(d);
    allowed.sendCutText('x'.repeat(21));
    await allowed.roundTrip();
    expect(await desktopClipboard(d)).toBe('before');
    allowed.sendCutText('héllo, wörld');
    await allowed.roundTrip();
    // The desktop holds a viewer's text while that viewer is connected (Xvnc serves it).
    await waitFor(async () => expect(await desktopClipboard(d)).toBe('héllo, wörld'), LONG);
    allowed.close();

    const events = await refusals(d);
    expect(events.map((e) => [e.result, e.after])).toEqual([
      ['denied', { direction: 'up', bytes: 12, reason: 'refused', count: 1 }],
      ['denied', { direction: 'up', bytes: 21, reason: 'too_large', count: 1 }],
    ]);
    expect(JSON.stringify(events)).not.toContain('refused text');
  });

  it('keeps the desktop’s clipboard from the browser when down is refused while screen updates flow, and sends it when allowed', async () => {
    await setPolicy(d, { allow_kasm_clipboard_down: false, max_clipboard_bytes: null });
    const refused = await view(d);
    await refused.roundTrip();
    await setDesktopClipboard(d, 'desktop secret');
    // The proxy saw the desktop's text go by and dropped it; updates kept coming meanwhile.
    await waitFor(async () => {
      await refused.roundTrip();
      expect(
        (await refusals(d)).map((e) => (e.after as { direction: string }).direction),
      ).toContain('down');
    }, LONG);
    await refused.roundTrip();
    expect(refused.updates).toBeGreaterThanOrEqual(2);
    refused.close();

    await setPolicy(d, { allow_kasm_clipboard_down: true });
    const allowed = await view(d);
    await allowed.roundTrip();
    await setDesktopClipboard(d, 'desktop text');
    await waitFor(async () => {
      await allowed.roundTrip();
      expect(allowed.cutTexts).toContain('desktop text');
    }, LONG);
    allowed.close();
    expect(refused.cutTexts).toEqual([]);
    const down = (await refusals(d)).filter(
      (e) => (e.after as { direction: string }).direction === 'down',
    );
    expect(down.length).toBe(1);
  });
});
