import { createHarness, type Harness } from '../../test/harness';
import { VALID_PASSWORD } from '../../test/factories';
import { createHostAudit } from '../audit';
import { hasAdministrator, runAdminCommand } from './admin.cli';

let h: Harness;
let lines: string[];
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  lines = [];
});

const run = (args: string[], password?: string) =>
  runAdminCommand(args, password, {
    out: (line) => lines.push(line),
    database: h.data,
    config: h.config,
    baseUrl: 'https://workspaces.example.com',
    record: createHostAudit(h.data, 'cli').record,
  });
const groupsOf = async (username: string) =>
  (await h.call('get_user', { target_user: { username } }))
    .json()
    .user.groups.map((g: { name: string }) => g.name);

describe('npm run workspace -- admin create', () => {
  it('creates the first administrator, who then signs in with the password', async () => {
    expect(await hasAdministrator(h.data)).toBe(false);
    await run(['create', 'Root'], VALID_PASSWORD);
    expect(await hasAdministrator(h.data)).toBe(true);
    expect((await groupsOf('root')).sort()).toEqual(['Administrators', 'All Users']);
    expect(lines).toContain('Sign in at https://workspaces.example.com/admin');
    const login = await h.call(
      'authenticate',
      { username: 'root', password: VALID_PASSWORD },
      null,
    );
    expect(login.statusCode).toBe(200);
  });

  it('records the new administrator in the audit trail: the user made, then made an administrator', async () => {
    await run(['create', 'root'], VALID_PASSWORD);
    const events = await h.db.auditEvent.findMany({ orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => [e.operation, e.channel, e.actorKind, e.result])).toEqual([
      ['create_user', 'cli', 'system', 'success'],
      ['add_user_group', 'cli', 'system', 'success'],
    ]);
    const groups = (event: (typeof events)[number]) =>
      (event.after as { groups: { name: string }[] }).groups.map((g) => g.name);
    expect(groups(events[1])).toContain('Administrators');
    expect(events[1].targetId).toBe(events[0].targetId);
    expect(JSON.stringify(events)).not.toContain(VALID_PASSWORD);

    await run(['create', 'root'], `${VALID_PASSWORD}2`);
    expect(await h.db.auditEvent.findFirst({ where: { operation: 'update_user' } })).toMatchObject({
      channel: 'cli',
      targetId: events[0].targetId,
    });
  });

  it('warns when the name belonged to a deleted user, whose profile folders were kept', async () => {
    const old = (await h.call('create_user', { target_user: { username: 'ops' } })).json().user;
    await h.call('delete_user', { target_user: { user_id: old.user_id }, force: true });
    await run(['create', 'ops'], VALID_PASSWORD);
    expect(lines.join('\n')).toContain('A user named "ops" was deleted before');
  });

  it('makes an existing user an administrator, once', async () => {
    await h.call('create_user', { target_user: { username: 'ops' } });
    await run(['create', 'ops']);
    await run(['create', 'ops']);
    expect(await groupsOf('ops')).toContain('Administrators');
    expect(lines).toContain('"ops" was already in Administrators.');
  });

  it('refuses a password breaking the rules and makes no one an administrator', async () => {
    await expect(run(['create', 'weak'], 'short')).rejects.toMatchObject({ statusCode: 400 });
    expect(await hasAdministrator(h.data)).toBe(false);
  });

  it('says its usage for anything else', async () => {
    await expect(run(['delete', 'x'])).rejects.toThrow(/admin create <username>/);
  });
});
