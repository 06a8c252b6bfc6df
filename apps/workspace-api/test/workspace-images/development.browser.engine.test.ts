import { mkdirSync } from 'node:fs';
import path from 'node:path';
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
} from './desktop-fixture';

jest.setTimeout(4 * LONG);

let world: DesktopWorld;

beforeAll(async () => {
  world = await createDesktopWorld('Development');
});
afterAll(() => closeDesktopWorld(world));

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
    await typeInTerminal(tab, [
      'gcc -Wall -o hello hello.c && ./hello > result.txt; git --version',
    ]);
    expect(await fileInSession(world, kasmId, '/home/kasm-user/result.txt')).toBe('42\n');
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await tab.screenshot({ path: path.join(SCREENSHOT_DIR, 'development.png') });
  });
});
