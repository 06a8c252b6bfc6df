import { randomUUID } from 'node:crypto';
import { toUuid, toWireId } from '@platform/schemas';
import { VALID_PASSWORD } from '../factories';
import { createGroup, createMember } from '../group-factories';
import { createHarness, type Harness } from '../harness';
import { createImage } from '../image-factories';
import { signIn, webClient, type WebClient } from './web-client';

let h: Harness;
let client: WebClient;
let allowed: string;
let other: string;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  const group = await createGroup(h, { name: 'Launchers' });
  await createMember(h, group.group_id, 'lena');
  allowed = await createImage(h.db, { friendlyName: 'Terminal' });
  other = await createImage(h.db, { friendlyName: 'Admin Console' });
  await h.call('add_images_group', {
    target_group: { group_id: group.group_id },
    target_image: { image_id: allowed },
  });
  client = webClient(h);
  await signIn(client, 'lena', VALID_PASSWORD);
  await client.get('/');
});

const launch = (imageId: string, form: Record<string, string>) =>
  client.post(`/workspaces/${imageId}/launch`, form);

describe('launching from the web page', () => {
  it('tells the user why a launch cannot start when no agent has room (no API key, no JSON)', async () => {
    const res = await launch(allowed, { _csrf: client.csrf() });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('That did not work');
    expect(res.body).toMatch(/agent/i);
    expect(await h.db.kasm.count()).toBe(0);
  });

  it('refuses a workspace that is not allowed to the user', async () => {
    const res = await launch(other, { _csrf: client.csrf() });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Not allowed');
  });

  it('refuses a launch without the CSRF token', async () => {
    const res = await launch(allowed, {});
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('reload the page');
  });

  it("answers 404 for a session that is not the user's, and 401 to a signed-out poll", async () => {
    const page = await client.get('/sessions/abcdefabcdefabcdefabcdefabcdefab');
    expect(page.statusCode).toBe(404);
    const poll = await h.inject({
      method: 'GET',
      url: '/sessions/abcdefabcdefabcdefabcdefabcdefab/status',
      headers: { accept: 'application/json' },
    });
    expect(poll.statusCode).toBe(401);
  });

  it('sends signed-out form posts back to the sign-in page', async () => {
    const res = await h.inject({
      method: 'POST',
      url: `/workspaces/${allowed}/launch`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });
});

describe('the start page of a launch under way', () => {
  /** A session of lena's recorded in the given state of its launch (no engine runs here). */
  async function launching(status: string, launchTimeline: object[]) {
    const zone = (
      await h.call('create_zone', {
        target_zone: { name: 'z', proxy_hostname: 'desk.example.com' },
      })
    ).json().zone;
    const agent = (
      await h.call('create_agent', {
        target_agent: { hostname: 'planner', zone_id: zone.zone_id, cores: 8, memory: 2 ** 34 },
      })
    ).json().agent;
    const user = await h.db.user.findFirstOrThrow({ where: { username: 'lena' } });
    const id = randomUUID();
    await h.db.kasm.create({
      data: {
        id,
        userId: user.id,
        imageId: allowed,
        agentId: toUuid(agent.agent_id),
        status,
        cores: 1,
        memory: BigInt(2 ** 30),
        plan: {},
        tokenHash: '0'.repeat(64),
        containerSecret: 'secret',
        expiresAt: new Date(Date.now() + 3_600_000),
        hardExpiresAt: new Date(Date.now() + 86_400_000),
        launchTimeline,
      },
    });
    return toWireId(id);
  }
  const since = (phase: string) => ({
    phase,
    started_at: new Date().toISOString(),
    ended_at: null,
  });

  it('says the phase under way in the status it polls and on the page itself', async () => {
    const kasmId = await launching('provisioning', [since('pull')]);
    const poll = await client.get(`/sessions/${kasmId}/status`);
    expect(poll.json()).toMatchObject({ status: 'provisioning', phase: 'pulling' });
    const page = await client.get(`/sessions/${kasmId}`);
    expect(page.body).toMatch(/<span id="launch-phase"[^>]*>pulling<\/span>/);
  });

  it('says no phase once the launch is over', async () => {
    const ended = { ...since('ready'), ended_at: new Date().toISOString() };
    const kasmId = await launching('running', [ended]);
    expect((await client.get(`/sessions/${kasmId}/status`)).json()).toMatchObject({
      status: 'running',
      phase: null,
    });
  });
});
