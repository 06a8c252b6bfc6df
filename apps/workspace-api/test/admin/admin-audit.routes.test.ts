import { createHarness, type Harness } from '../harness';
import { createGroup, createMember } from '../group-factories';
import { signedInWith, submit } from './admin-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const auditOf = async (filter: Record<string, unknown>) =>
  (await h.call('get_audit_log', filter)).json().events;

describe("the console's writes in the audit trail", () => {
  it('records a change as the API would, with the signed-in person as the actor', async () => {
    const { client, user: admin } = await signedInWith(h, ['global_admin']);
    const user = await createMember(h, (await createGroup(h, { name: 'G' })).group_id, 'dana');
    const page = `/admin/users/${user.user_id}`;
    const saved = await submit(client, page, `${page}/update`, {
      username: 'dana',
      first_name: 'Dana',
      last_name: '',
      phone: '',
      organization: 'Acme',
      notes: '',
    });
    expect(saved.statusCode).toBe(303);

    const [event] = await auditOf({ channel: 'console' });
    expect(event).toMatchObject({
      operation: 'update_user',
      channel: 'console',
      result: 'success',
      actor: { kind: 'user', id: admin.user_id, name: admin.username },
      target: { type: 'user', id: user.user_id },
    });
    expect(event.before).toMatchObject({ organization: 'Analytical Engines' });
    expect(event.after).toMatchObject({ organization: 'Acme', first_name: 'Dana' });
  });

  it('records a refused console write as denied, and a read not at all', async () => {
    const { client, user: viewer } = await signedInWith(h, ['users.view']);
    const user = await createMember(h, (await createGroup(h, { name: 'G' })).group_id, 'erin');
    const page = `/admin/users/${user.user_id}`;
    const refused = await submit(client, page, `${page}/update`, { username: 'erin2' });
    expect(refused.statusCode).toBe(403);

    const events = await auditOf({ channel: 'console' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      operation: 'update_user',
      result: 'denied',
      actor: { kind: 'user', id: viewer.user_id },
    });
    expect((await h.call('get_user', { target_user: { username: 'erin' } })).statusCode).toBe(200);
  });
});

describe('the Audit section', () => {
  it('lists the events a filter matches, newest first, to a person holding audit.view', async () => {
    const { client } = await signedInWith(h, ['audit.view']);
    await h.call('create_user', { target_user: { username: 'frank' } });
    await h.call('create_group', { target_group: { name: 'Frankly' } });

    const all = await client.get('/admin/audit');
    expect(all.statusCode).toBe(200);
    expect(all.body).toMatch(/create_group[\s\S]*create_user/);
    const filtered = await client.get('/admin/audit?operation=create_user&channel=&result=');
    expect(filtered.body).toContain('create_user');
    expect(filtered.body).not.toContain('create_group');
    expect((await client.get('/admin/audit?since=yesterday')).statusCode).toBe(400);
  });

  it('is neither shown nor served to a person without audit.view', async () => {
    const { client } = await signedInWith(h, ['users.view']);
    const home = await client.get('/admin/users');
    expect(home.body).not.toContain('href="/admin/audit"');
    expect((await client.get('/admin/audit')).statusCode).toBe(403);
  });
});
