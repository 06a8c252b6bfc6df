import { toUuid } from '@platform/schemas';
import { VALID_PASSWORD } from '../factories';
import { captureLogs, createHarness } from '../harness';
import { signIn, webClient } from '../web/web-client';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

// What the engine says when it refuses stays in the service's log: API callers and the user's
// pages get a fixed reason and its code.
jest.setTimeout(3 * LONG);

let w: SessionWorld;
const logs = captureLogs();
beforeAll(async () => {
  const h = await createHarness(
    { SESSION_URL_SCHEME: 'http', SESSION_LEASE_SECONDS: '3', LOG_LEVEL: 'warn' },
    { logStream: logs.stream },
  );
  w = await createSessionWorld({}, h);
});
afterAll(() => closeWorld(w));

// Docker refuses containers with less memory than this, in its own words.
const ENGINE_WORDS = /Minimum memory limit/i;
const PLAIN = "The agent's engine refused to create the container (ENGINE_CREATE_REFUSED)";

describe('an engine that refuses a launch', () => {
  it("shows the plain reason in the API and on the user's pages, and its own words only in the log", async () => {
    const user = await w.member('refused');
    // No profile: this harness keeps the default PROFILE_ROOT, and the refusal is the engine's.
    const imageId = await w.addImage({ memory: BigInt(1024 * 1024), persistentProfilePath: '' });
    const { kasm_id } = await w.request({ user_id: user.user_id, image_id: imageId });
    await w.waitForStatus(toUuid(kasm_id), 'error');

    const viewer = await w.h.issueKey(['sessions.view'], { readOnly: true });
    const status = await w.h.call('get_kasm_status', { kasm_id }, viewer);
    expect(status.json().operational_message).toBe(PLAIN);
    expect(status.body).not.toMatch(ENGINE_WORDS);

    const browser = webClient(w.h);
    await signIn(browser, user.username, VALID_PASSWORD);
    const page = await browser.get(`/sessions/${kasm_id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('ENGINE_CREATE_REFUSED');
    expect(page.body).not.toMatch(ENGINE_WORDS);
    const polled = await browser.get(`/sessions/${kasm_id}/status`);
    expect(polled.json().message).toBe(PLAIN);

    const logged = logs
      .lines()
      .find((line) => line.msg === 'engine call failed' && line.call === 'create');
    expect(logged).toMatchObject({
      agentId: toUuid(w.agentId),
      agentHostname: 'engine-1',
      failure: 'ENGINE_CREATE_REFUSED',
      engineDetail: expect.stringMatching(ENGINE_WORDS),
    });
  });
});
