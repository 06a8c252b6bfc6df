import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import {
  closeDesktopWorld,
  createDesktopWorld,
  destroyFromPage,
  fileInSession,
  launchDesktop,
  LONG,
  streamsClosed,
  SCREENSHOT_DIR,
  typeInTerminal,
  waitForDesktop,
  type DesktopWorld,
} from './desktop-fixture';

jest.setTimeout(6 * LONG);

let world: DesktopWorld;

// The Desktop with a persistent profile under the world's own PROFILE_ROOT (a temp folder).
beforeAll(async () => {
  world = await createDesktopWorld(['Desktop']);
  const set = await world.w.h.call('set_persistent_profile_path', {
    target_image: {
      image_id: world.imageIds.Desktop,
      persistent_profile_path: `${world.w.profiles}/{username}`,
    },
  });
  expect(set.statusCode).toBe(200);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
});
afterAll(() => closeDesktopWorld(world));

describe('the Desktop workspace with a persistent profile, in Chromium', () => {
  it('keeps a file saved in the home across destroy and relaunch', async () => {
    const first = await launchDesktop(world, 'Desktop');
    await waitForDesktop(first.tab);
    await typeInTerminal(first.tab, ['echo kept > ~/saved.txt']);
    expect(await fileInSession(world, first.kasmId, '/home/kasm-user/saved.txt')).toBe('kept\n');
    // On the agent, in the user's profile folder, owned by the image's user.
    const saved = statSync(path.join(world.w.profiles, 'ada', 'saved.txt'));
    expect(saved.uid).toBe(1000);

    // The destroy ends the stream and the container; the profile stays.
    await destroyFromPage(world, 'Desktop');
    await streamsClosed(first);
    const stopped = toUuid(first.kasmId);
    await waitFor(async () => expect(await world.w.containersOf(stopped)).toEqual([]), LONG);
    await first.tab.close();

    const second = await launchDesktop(world, 'Desktop');
    expect(second.kasmId).not.toBe(first.kasmId);
    await waitForDesktop(second.tab);
    expect(await fileInSession(world, second.kasmId, '/home/kasm-user/saved.txt')).toBe('kept\n');
    // The new desktop's own shell reads it too (and shows it, pictured for the docs).
    await typeInTerminal(second.tab, ['cat ~/saved.txt | tee ~/read.txt']);
    expect(await fileInSession(world, second.kasmId, '/home/kasm-user/read.txt')).toBe('kept\n');
    await second.tab.screenshot({ path: path.join(SCREENSHOT_DIR, 'desktop-profile.png') });
  });
});
