import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '@platform/testing';
import {
  closeDesktopWorld,
  createDesktopWorld,
  fileInSession,
  launchDesktop,
  LONG,
  SCREENSHOT_DIR,
  typeInTerminal,
  waitForDesktop,
  type DesktopWorld,
  type LaunchedDesktop,
} from './desktop-fixture';

jest.setTimeout(4 * LONG);

let world: DesktopWorld;
let desktop: LaunchedDesktop;

beforeAll(async () => {
  world = await createDesktopWorld('Desktop');
});
afterAll(() => closeDesktopWorld(world));

describe('the Desktop workspace in Chromium', () => {
  it('launches from the page and shows the desktop through the proxy, streamed over a WebSocket', async () => {
    desktop = await launchDesktop(world, 'Desktop');
    expect(await waitForDesktop(desktop.tab)).toBeGreaterThanOrEqual(8);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await desktop.tab.screenshot({ path: path.join(SCREENSHOT_DIR, 'desktop.png') });
  });

  it('passes keys typed into the terminal to the container', async () => {
    await typeInTerminal(desktop.tab, ['echo hello > ~/typed.txt']);
    expect(await fileInSession(world, desktop.kasmId, '/home/kasm-user/typed.txt')).toBe('hello\n');
  });

  it('ends the stream when the session is destroyed from the page', async () => {
    const closed = new Promise((resolve) => desktop.stream.on('close', resolve));
    await world.page
      .locator('.session', { hasText: 'Desktop' })
      .getByRole('button', { name: 'Destroy Desktop' })
      .click();
    await world.page.getByText('The session was destroyed.').waitFor({ timeout: LONG });
    await closed;
    const kasm = await world.w.h.db.kasm.findFirstOrThrow({ where: {} });
    expect(kasm.status).toBe('stopped');
    await waitFor(async () => expect(await world.w.containersOf(kasm.id)).toEqual([]), LONG);
  });
});
