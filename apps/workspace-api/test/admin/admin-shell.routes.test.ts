import { createHarness, type Harness } from '../harness';
import { createGroup, createMember } from '../group-factories';
import { VALID_PASSWORD } from '../factories';
import { signIn, webClient } from '../web/web-client';
import { signedInWith, submit } from './admin-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

describe('the console shell at /admin', () => {
  it('shows the sign-in page to a visitor, which leads back to the console once signed in', async () => {
    const client = webClient(h);
    const page = await client.get('/admin/sessions');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="next" value="/admin/sessions"');
    const group = await createGroup(h, { name: 'Viewers', permissions: ['sessions.view'] });
    await createMember(h, group.group_id, 'viewer');
    const res = await client.post('/sign-in', {
      username: 'viewer',
      password: VALID_PASSWORD,
      next: '/admin/sessions',
      _csrf: client.csrf(),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/sessions');
  });

  it('never leads a sign-in to another site', async () => {
    await createMember(h, (await createGroup(h, { name: 'G' })).group_id, 'someone');
    const client = webClient(h);
    await client.get('/');
    const res = await client.post('/sign-in', {
      username: 'someone',
      password: VALID_PASSWORD,
      next: '//evil.example/admin',
      _csrf: client.csrf(),
    });
    expect(res.headers.location).toBe('/');
  });

  it('refuses a signed-in person whose groups grant no administrator permission', async () => {
    await createMember(h, (await createGroup(h, { name: 'Plain' })).group_id, 'plain');
    const client = webClient(h);
    await signIn(client, 'plain', VALID_PASSWORD);
    const res = await client.get('/admin');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Your groups grant no administrator permission');
  });

  it('shows only the sections the person may view, and refuses the others', async () => {
    const { client } = await signedInWith(h, ['sessions.view']);
    const home = await client.get('/admin');
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/admin/overview');
    const page = await client.get('/admin/sessions');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/admin/sessions"');
    expect(page.body).not.toContain('href="/admin/users"');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await client.get('/admin/users')).statusCode).toBe(403);
  });

  it('refuses a forged form (no CSRF token) with 403 and a write without the permission with 403', async () => {
    const { client } = await signedInWith(h, ['sessions.view']);
    await client.get('/admin/sessions');
    const id = '11111111111111111111111111111111';
    const forged = await client.post(`/admin/sessions/${id}/destroy`, {});
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('reload the page');
    const lacking = await submit(client, '/admin/sessions', `/admin/sessions/${id}/destroy`);
    expect(lacking.statusCode).toBe(403);
    expect(lacking.body).toContain('sessions.delete');
  });

  it('sends a form posted without a login back to the console, changing nothing', async () => {
    const res = await webClient(h).post('/admin/sessions/11111111111111111111111111111111/destroy');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin');
  });

  it('serves its own script and stylesheet', async () => {
    const js = await webClient(h).get('/admin/assets/admin.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toContain('text/javascript');
    expect((await webClient(h).get('/admin/assets/nope.js')).statusCode).toBe(404);
  });
});
