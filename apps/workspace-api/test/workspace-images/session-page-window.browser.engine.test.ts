import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from '@platform/testing';
import {
  closeDesktopWorld,
  createDesktopWorld,
  DESKTOP_CANVAS,
  launchDesktop,
  LONG,
  openClient,
  waitForDesktop,
  type DesktopWorld,
  type LaunchedDesktop,
} from './desktop-fixture';
import { statusBecomes } from './session-page-fixture';
import {
  browserClipboard,
  canvasSizes,
  desktopClipboard,
  desktopSize,
  screenSize,
  setDesktopClipboard,
  type PageClipboard,
} from './session-window-fixture';

// The session page as a person's own window onto the desktop, against the real Desktop image
// reached both ways: as Kasm's images are (HTTPS 6901 with Basic auth, no socket hop) and over
// the platform's socket hop. The desktop follows the browser window (SetDesktopSize through the
// proxy), a desktop that cannot resize is scaled to it, and the clipboard goes both ways with
// Unicode in a context that granted the page clipboard access. The first way runs with a
// clipboard limit, so the proxy reads both sides of the stream (its guarded path); the second
// pipes it unread.
jest.setTimeout(8 * LONG);
/** How often a wait looks again; each wait's limit is LONG. */
const POLL_MS = 250;

const UNICODE = 'Grüße 🚀 日本語';

describe.each([
  ['reached as Kasm images are (HTTPS 6901, no socket hop), its stream guarded', false, 1 << 20],
  ['over the platform’s socket hop, its stream unread', true, null],
])('the session page %s', (_name, hop, maxClipboardBytes) => {
  let world: DesktopWorld;
  let root: string;
  let desktop: LaunchedDesktop;
  beforeAll(async () => {
    // Short: a Unix socket's path holds at most 107 bytes.
    root = await mkdtemp(path.join(tmpdir(), 'win-'));
    world = await createDesktopWorld(
      ['Desktop'],
      hop ? { SESSION_SOCKETS_DIR: path.join(root, 'sockets') } : {},
    );
    await world.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: world.origin,
    });
    const policy = await world.w.h.call('update_image', {
      target_image: { image_id: world.imageIds.Desktop, max_clipboard_bytes: maxClipboardBytes },
    });
    expect(policy.statusCode).toBe(200);
    desktop = await launchDesktop(world, 'Desktop');
    await waitForDesktop(desktop.tab);
  });
  afterAll(async () => {
    await closeDesktopWorld(world);
    await rm(root, { recursive: true, force: true });
  });

  it('resizes the desktop to the browser window, and again when the window changes', async () => {
    const { tab, kasmId } = desktop;
    for (const viewport of [
      { width: 1000, height: 700 },
      { width: 1440, height: 900 },
    ]) {
      await tab.setViewportSize(viewport);
      const wanted = await screenSize(tab);
      expect(wanted).toEqual(`${viewport.width}x${viewport.height}`);
      await waitFor(
        async () => expect(await desktopSize(world, kasmId)).toBe(wanted),
        LONG,
        POLL_MS,
      );
      // The canvas is drawn at the desktop's size, not scaled.
      await waitFor(async () => {
        expect(await canvasSizes(tab, DESKTOP_CANVAS)).toEqual({ size: wanted, shown: wanted });
      }, LONG);
    }
  });

  it('puts text copied on the person’s computer, Unicode and all, in the desktop’s clipboard', async () => {
    const { tab, kasmId } = desktop;
    await tab.bringToFront();
    await tab.evaluate(
      (text) => (globalThis as unknown as PageClipboard).navigator.clipboard.writeText(text),
      UNICODE,
    );
    // Coming back to the page (a click into the desktop) hands the clipboard over.
    await waitFor(
      async () => {
        await tab.locator(DESKTOP_CANVAS).click({ position: { x: 600, y: 500 } });
        expect(await desktopClipboard(world, kasmId)).toBe(UNICODE);
      },
      LONG,
      500,
    );
  });

  it('puts text copied in the desktop, Unicode and all, on the person’s clipboard', async () => {
    const { tab, kasmId } = desktop;
    const text = `${UNICODE} ↩ from the desktop`;
    await setDesktopClipboard(world, kasmId, text);
    await waitFor(async () => expect(await browserClipboard(tab)).toBe(text), LONG, POLL_MS);
    expect(await tab.locator('#clipboard').inputValue()).toBe(text);
  });

  it('scales a desktop that cannot resize to the window, keeping its own size', async () => {
    await world.w.h.call('destroy_kasm', { kasm_id: desktop.kasmId, user_id: world.userId });
    await statusBecomes(world, desktop.kasmId, 'destroyed');
    await desktop.tab.close();
    const requested = await world.w.h.call('request_kasm', {
      user_id: world.userId,
      image_id: world.imageIds.Desktop,
      environment: { VNC_RESIZE: 'off' },
    });
    const { kasm_id: kasmId } = requested.json();
    await statusBecomes(world, kasmId, 'running');
    const { kasm_url: kasmUrl } = (
      await world.w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: world.userId })
    ).json();
    const fixed = await openClient(world, kasmId, kasmUrl);
    // The page asked, and the server said no (noVNC warns with the server's reason).
    const refused = fixed.tab.waitForEvent('console', {
      predicate: (message) => /administratively prohibited/.test(message.text()),
      timeout: LONG,
    });
    await fixed.tab.setViewportSize({ width: 960, height: 600 });
    await refused;
    await waitForDesktop(fixed.tab);
    await waitFor(
      async () => {
        // 1280×800 shown in 960×600: scaled by 3/4, whole.
        expect(await canvasSizes(fixed.tab, DESKTOP_CANVAS)).toEqual({
          size: '1280x800',
          shown: '960x600',
        });
      },
      LONG,
      250,
    );
    expect(await desktopSize(world, kasmId)).toBe('1280x800');
  });
});
