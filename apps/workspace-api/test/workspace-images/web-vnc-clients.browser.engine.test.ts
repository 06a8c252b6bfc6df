import { toUuid } from '@platform/schemas';
import {
  closeDesktopWorld,
  createDesktopWorld,
  destroyFromPage,
  launchDesktop,
  LONG,
  openClient,
  streamsClosed,
  waitForDesktop,
  type DesktopWorld,
  type LaunchedDesktop,
} from './desktop-fixture';

// Web VNC clients that open the stream beside their page through the proxy, as KasmVNC's does,
// against the Desktop image's real websockify: each must show the desktop in its own tab.
let desktop: LaunchedDesktop;
let world: DesktopWorld;
jest.setTimeout(4 * LONG);

beforeAll(async () => {
  world = await createDesktopWorld(['Desktop']);
  desktop = await launchDesktop(world, 'Desktop');
  await waitForDesktop(desktop.tab);
});
afterAll(() => closeDesktopWorld(world));

describe('web VNC clients of the Desktop image through the proxy, in Chromium', () => {
  it('reach a Desktop that serves the certificate the platform gave it, pinned', async () => {
    const row = await world.w.h.db.kasm.findUniqueOrThrow({
      where: { id: toUuid(desktop.kasmId) },
    });
    expect(row.tlsIssuedSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row.tlsPinSha256).toBe(row.tlsIssuedSha256);
  });

  it.each([
    ["the platform's session page at the session's root", (id: string) => `kasm/${id}/`],
    [
      'the image page, which takes the stream path from its location',
      (id: string) => `kasm/${id}/index.html`,
    ],
    [
      "noVNC's own page, told the stream path by its path parameter",
      (id: string) => `kasm/${id}/vnc.html?path=kasm/${id}/websockify&autoconnect=1`,
    ],
    [
      "noVNC's own page, with the path parameter URL-encoded and resizing the remote desktop",
      (id: string) =>
        `kasm/${id}/vnc.html?autoconnect=true&resize=remote&path=${encodeURIComponent(`kasm/${id}/websockify`)}`,
    ],
  ])('%s shows the desktop', async (_client, address) => {
    const client = await openClient(
      world,
      desktop.kasmId,
      `${world.origin}/${address(desktop.kasmId)}`,
    );
    expect(await waitForDesktop(client.tab)).toBeGreaterThanOrEqual(8);
    await client.tab.close();
  });

  it('ends every client stream when the session is destroyed', async () => {
    const client = await openClient(
      world,
      desktop.kasmId,
      `${world.origin}/kasm/${desktop.kasmId}/vnc.html?path=kasm/${desktop.kasmId}/websockify&autoconnect=1`,
    );
    await waitForDesktop(client.tab);
    await destroyFromPage(world, 'Desktop');
    await Promise.all([streamsClosed(desktop), streamsClosed(client)]);
  });
});
