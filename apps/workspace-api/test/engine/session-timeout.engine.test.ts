import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(3 * LONG);

// Its own world: the launch limit here is the shortest allowed, which an ordinary launch on a
// busy machine could exceed.
let w: SessionWorld;
beforeAll(async () => {
  w = await createSessionWorld({ SESSION_LAUNCH_TIMEOUT_SECONDS: '5' });
});
afterAll(() => closeWorld(w));

it('fails a launch that outlasts SESSION_LAUNCH_TIMEOUT_SECONDS and removes its container', async () => {
  const user = await w.member('patient');
  const imageId = await w.addImage({ execConfig: { go: { cmd: 'sleep 600' } } });
  const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
  const row = await w.waitForStatus(toUuid(kasm_id), 'error');
  expect(row.statusMessage).toBe('The launch took longer than 5 s');
  await waitFor(async () => {
    if ((await w.containersOf(kasm_id)).length > 0) throw new Error('the container is still there');
  }, LONG);
});
