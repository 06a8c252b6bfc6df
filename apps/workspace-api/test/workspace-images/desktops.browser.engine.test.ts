import { mkdirSync } from 'node:fs';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import {
  closeDesktopWorld,
  createDesktopWorld,
  destroyFromPage,
  fileInSession,
  launchDesktop,
  canvasColours,
  LONG,
  SCREENSHOT_DIR,
  screenshotWhenDrawn,
  streamsClosed,
  typeInTerminal,
  waitForDesktop,
  type DesktopWorld,
  type LaunchedDesktop,
} from './desktop-fixture';

jest.setTimeout(4 * LONG);

let world: DesktopWorld;

beforeAll(async () => {
  world = await createDesktopWorld(['Desktop', 'Development']);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
});
afterAll(() => closeDesktopWorld(world));

describe('the Desktop workspace in Chromium', () => {
  let desktop: LaunchedDesktop;

  it('launches from the page and shows the desktop through the proxy, streamed over a WebSocket', async () => {
    desktop = await launchDesktop(world, 'Desktop');
    expect(await waitForDesktop(desktop.tab)).toBeGreaterThanOrEqual(8);
  });

  it('passes keys typed into the terminal to the container', async () => {
    await typeInTerminal(desktop.tab, ['echo hello > ~/typed.txt']);
    expect(await fileInSession(world, desktop.kasmId, '/home/kasm-user/typed.txt')).toBe('hello\n');
    // The file manager and the editor, pictured for the docs.
    const before = await canvasColours(desktop.tab);
    await typeInTerminal(desktop.tab, [
      'clear; pcmanfm ~ 2>/dev/null & mousepad ~/typed.txt 2>/dev/null &',
    ]);
    await screenshotWhenDrawn(desktop.tab, before, 'desktop');
  });

  it('ends the stream when the session is destroyed from the page', async () => {
    await destroyFromPage(world, 'Desktop');
    await streamsClosed(desktop);
    const kasm = await world.w.h.db.kasm.findUniqueOrThrow({
      where: { id: toUuid(desktop.kasmId) },
    });
    expect(kasm.status).toBe('destroyed');
    await waitFor(async () => expect(await world.w.containersOf(kasm.id)).toEqual([]), LONG);
    await desktop.tab.close();
  });
});

describe('the Development workspace in Chromium', () => {
  it('compiles and runs a C program typed into its terminal', async () => {
    const { tab, kasmId } = await launchDesktop(world, 'Development');
    await waitForDesktop(tab);
    await typeInTerminal(tab, [
      'cat > hello.c',
      '#include <stdio.h>',
      'int main(void) { printf("%d\\n", 6 * 7); return 0; }',
    ]);
    await tab.keyboard.press('Control+d');
    await typeInTerminal(tab, ['gcc -Wall -o hello hello.c && ./hello > result.txt']);
    expect(await fileInSession(world, kasmId, '/home/kasm-user/result.txt')).toBe('42\n');
    expect(await fileInSession(world, kasmId, '/home/kasm-user/hello.c')).toMatch(
      /^#include <stdio.h>\n/,
    );
    // Run again on screen, with the source in Geany, pictured for the docs.
    const before = await canvasColours(tab);
    await typeInTerminal(tab, [
      'clear; ./hello; git --version; python3 --version; geany hello.c 2>/dev/null &',
    ]);
    await screenshotWhenDrawn(tab, before, 'development');
    await destroyFromPage(world, 'Development');
  });
});
