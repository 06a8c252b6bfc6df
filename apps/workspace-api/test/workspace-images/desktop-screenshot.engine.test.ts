import jpeg from 'jpeg-js';
import { toUuid } from '@platform/schemas';
import { closeWorld, createSessionWorld, type SessionWorld } from '../engine/session-fixture';
import { installOwnWorkspaces } from './own-workspaces';

// get_kasm_screenshot on the real Desktop workspace (Xvnc on display :1 behind websockify), and
// the same desktop stopped and resumed: its display comes back and is read again.
const LONG = 120_000;
jest.setTimeout(4 * LONG);

let w: SessionWorld;
let kasmId: string;
beforeAll(async () => {
  w = await createSessionWorld();
  const { imageIds } = await installOwnWorkspaces(w, ['Desktop']);
  const imageId = imageIds.Desktop;
  const { user_id } = await w.member('ada');
  kasmId = (await w.request({ user_id, image_id: imageId })).kasm_id;
  await w.waitForStatus(toUuid(kasmId), 'running');
});
afterAll(() => closeWorld(w));

async function screenshot(width?: number) {
  const res = await w.h.call('get_kasm_screenshot', { kasm_id: kasmId, width });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('image/jpeg');
  return jpeg.decode(res.rawPayload, { useTArray: true });
}

/** How many distinct colours (coarsely) the image holds: a drawn desktop has several. */
function colours(image: { data: Uint8Array }): number {
  const seen = new Set<number>();
  for (let i = 0; i < image.data.length; i += 4 * 97) {
    seen.add(
      ((image.data[i] >> 5) << 6) | ((image.data[i + 1] >> 5) << 3) | (image.data[i + 2] >> 5),
    );
  }
  return seen.size;
}

it('answers a JPEG of the screen, at its size or scaled to the width asked for', async () => {
  const full = await screenshot();
  // The workspace's display: Xvnc's geometry (VNC_RESOLUTION, 1280x800 unless set).
  expect([full.width, full.height]).toEqual([1280, 800]);
  const small = await screenshot(320);
  expect([small.width, small.height]).toEqual([320, 200]);
  expect(colours(full)).toBeGreaterThan(1);
});

it('reads the display again after the desktop was stopped and resumed', async () => {
  expect((await w.h.call('stop_kasm', { kasm_id: kasmId })).statusCode).toBe(200);
  const refused = await w.h.call('get_kasm_screenshot', { kasm_id: kasmId });
  expect(refused.statusCode).toBe(409);
  expect(refused.json().detail).toBe('The session is stopped');
  const resumed = await w.h.call('resume_kasm', { kasm_id: kasmId });
  expect(resumed.json().kasm.operational_status).toBe('running');
  const again = await screenshot(640);
  expect([again.width, again.height]).toEqual([640, 400]);
});
