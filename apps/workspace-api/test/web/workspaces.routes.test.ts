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
