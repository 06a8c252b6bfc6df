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
