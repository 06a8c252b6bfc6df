import type { LightMyRequestResponse } from 'fastify';
import { toWireId } from '@platform/schemas';
import { createHarness, type Credentials, type Harness, keyHeaders } from '../../test/harness';
import { userActions, VALID_PASSWORD } from '../../test/factories';
import { createImage } from '../../test/image-factories';
import type { AuditEventResponse } from './audit.schemas';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const { createUser } = userActions(() => h);

async function auditLog(body: object = {}, credentials: Credentials = h.admin) {
  const res = await h.call('get_audit_log', body, credentials);
  expect(res.statusCode).toBe(200);
  return res.json() as {
    events: AuditEventResponse[];
    total: number;
    page: number;
    page_size: number;
    next_cursor: string | null;
  };
}

const keyIdOf = async (credentials: Credentials) =>
  toWireId((await h.db.apiKey.findUniqueOrThrow({ where: { key: credentials.api_key } })).id);

/** Every audit row as stored, as one string: what must never hold a secret. */
async function everyRowAsText() {
  return JSON.stringify(await h.db.auditEvent.findMany());
}

const post = (operation: string, body: object, credentials: Credentials, prefix = '/api/public') =>
  h.inject({
    method: 'POST',
    url: `${prefix}/${operation}`,
    headers: { ...keyHeaders(credentials), 'user-agent': 'audit-test/1.0' },
    payload: body,
  });

describe('writes through the API are recorded', () => {
  it('records update_user with the key, address, user agent and the user before and after', async () => {
    const user = await createUser({ first_name: 'Ada' });
    const editor = await h.issueKey(['users.modify']);
    const res = await post(
      'update_user',
      { target_user: { user_id: user.user_id, first_name: 'Augusta' } },
      editor,
    );
    expect(res.statusCode).toBe(200);

    const { events } = await auditLog({ operation: 'update_user' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: { kind: 'api_key', id: await keyIdOf(editor), name: 'test' },
      channel: 'api',
      operation: 'update_user',
      target: { type: 'user', id: user.user_id },
      client_ip: '127.0.0.1',
      user_agent: 'audit-test/1.0',
      result: 'success',
      status: 200,
      error_code: null,
      before: { user_id: user.user_id, username: user.username, first_name: 'Ada' },
      after: { user_id: user.user_id, username: user.username, first_name: 'Augusta' },
    });
    expect(Date.parse(events[0].created as string)).not.toBeNaN();
  });

  it('names the target a create made from its answer, with nothing before', async () => {
    const res = await h.call('create_group', { target_group: { name: 'Audited' } });
    expect(res.statusCode).toBe(200);
    const { events } = await auditLog({ operation: 'create_group' });
    expect(events).toEqual([
      expect.objectContaining({
        target: { type: 'group', id: res.json().group.group_id },
        before: null,
        after: expect.objectContaining({ name: 'Audited' }),
      }),
    ]);
  });

  it("shows a group's Allowed Workspaces before and after add_images_group", async () => {
    const group = (await h.call('create_group', { target_group: { name: 'Devs' } })).json().group;
    const imageId = await createImage(h.db, { name: 'kasmweb/terminal:1.16.0' });
    const res = await h.call('add_images_group', {
      target_group: { group_id: group.group_id },
      target_image: { image_id: imageId },
    });
    expect(res.statusCode).toBe(200);
    const [event] = (await auditLog({ operation: 'add_images_group' })).events;
    expect(event.target).toEqual({ type: 'group', id: group.group_id });
    expect(event.before).toMatchObject({ name: 'Devs', images: [] });
    expect(event.after).toMatchObject({
      images: [{ image_id: imageId, name: 'kasmweb/terminal:1.16.0' }],
    });
  });

  it('records a delete with the user before and nothing after', async () => {
    const user = await createUser();
    expect(
      (await h.call('delete_user', { target_user: { username: user.username } })).statusCode,
    ).toBe(200);
    const [event] = (await auditLog({ operation: 'delete_user' })).events;
    expect(event.target).toEqual({ type: 'user', id: user.user_id });
    expect(event.before).toMatchObject({ username: user.username });
    expect(event.after).toBeNull();
  });

  it('records writes made under /api/admin too', async () => {
    const res = await post(
      'create_user',
      { target_user: { username: 'via-admin' } },
      h.admin,
      '/api/admin',
    );
    expect(res.statusCode).toBe(200);
    const { events } = await auditLog({ operation: 'create_user' });
    expect(events.map((e) => e.after?.username)).toEqual(['via-admin']);
  });

  it('records a write that failed, with its error code', async () => {
    await createUser({ username: 'taken' });
    const res = await h.call('create_user', { target_user: { username: 'taken' } });
    expect(res.statusCode).toBe(409);
    const { events } = await auditLog({ operation: 'create_user', result: 'failed' });
    expect(events).toEqual([
      expect.objectContaining({ status: 409, error_code: res.json().code, after: null }),
    ]);
  });
});

describe('refusals are recorded', () => {
  it('records a write refused for want of a permission, against the refused key', async () => {
    const user = await createUser();
    const viewer = await h.issueKey(['users.view']);
    const res = await post(
      'update_user',
      { target_user: { user_id: user.user_id, notes: 'x' } },
      viewer,
    );
    expect(res.statusCode).toBe(403);
    const { events } = await auditLog({ result: 'denied' });
    expect(events).toEqual([
      expect.objectContaining({
        actor: { kind: 'api_key', id: await keyIdOf(viewer), name: 'test' },
        operation: 'update_user',
        target: { type: 'user', id: user.user_id },
        status: 403,
        error_code: 'FORBIDDEN',
        before: null,
        after: null,
      }),
    ]);
  });

  it('records nothing for a caller whose credentials are wrong (nobody to name)', async () => {
    const res = await h.call(
      'delete_user',
      { target_user: { username: 'anyone' } },
      {
        api_key: h.admin.api_key,
        api_key_secret: 'wrong',
      },
    );
    expect(res.statusCode).toBe(401);
    expect(await h.db.auditEvent.count()).toBe(0);
  });
});

describe('secrets never reach the audit trail', () => {
  it('keeps the new key but not its secret or hash from create_api_key', async () => {
    const res = await h.call('create_api_key', { name: 'robot', permissions: ['users.view'] });
    expect(res.statusCode).toBe(200);
    const { api_key: key, api_key_secret: secret } = res.json();
    const stored = await h.db.apiKey.findUniqueOrThrow({ where: { key: key.api_key } });

    const [event] = (await auditLog({ operation: 'create_api_key' })).events;
    expect(event.target).toEqual({ type: 'api_key', id: key.api_key_id });
    expect(event.after).toMatchObject({ name: 'robot', permissions: ['users.view'] });
    const text = await everyRowAsText();
    expect(text).not.toContain(secret);
    expect(text).not.toContain(stored.secretHash);
  });

  it('keeps neither the password nor its hash from update_user', async () => {
    const user = await createUser();
    const password = 'N3w-and-secret!';
    const res = await h.call('update_user', { target_user: { user_id: user.user_id, password } });
    expect(res.statusCode).toBe(200);
    const { passwordHash } = await h.db.user.findUniqueOrThrow({
      where: { username: user.username },
    });
    const text = await everyRowAsText();
    expect(text).toContain('update_user');
    expect(text).not.toContain(password);
    expect(text).not.toContain(VALID_PASSWORD);
    expect(text).not.toContain(passwordHash as string);
  });
});

describe('reads are not recorded', () => {
  it('records no get_user, get_users, get_api_keys or get_audit_log', async () => {
    const user = await createUser();
    await h.db.auditEvent.deleteMany();
    const reads: [string, object][] = [
      ['get_user', { target_user: { user_id: user.user_id } }],
      ['get_users', {}],
      ['get_api_keys', {}],
      ['get_groups', {}],
      ['get_audit_log', {}],
    ];
    for (const [operation, body] of reads) {
      expect((await h.call(operation, body)).statusCode).toBe(200);
    }
    expect(await h.db.auditEvent.count()).toBe(0);
  });
});

describe('get_audit_log', () => {
  it('refuses a key without audit.view, and lets global_admin and audit.view read', async () => {
    const other = await h.issueKey(['users.view', 'users.modify']);
    const refused: LightMyRequestResponse = await h.call('get_audit_log', {}, other);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe('This API key lacks the audit.view permission');
    await auditLog({}, await h.issueKey(['audit.view']));
    await auditLog({}, h.admin);
  });

  it('filters by actor, operation, target and time, all together', async () => {
    const a = await h.issueKey(['users.create', 'users.modify']);
    const b = await h.issueKey(['users.create']);
    const start = new Date().toISOString();
    const ada = (await h.call('create_user', { target_user: { username: 'ada' } }, a)).json().user;
    await h.call('create_user', { target_user: { username: 'bob' } }, b);
    await h.call('update_user', { target_user: { user_id: ada.user_id, notes: 'n' } }, a);

    const byA = await auditLog({ actor_id: await keyIdOf(a) });
    expect(byA.events.map((e) => e.operation)).toEqual(['update_user', 'create_user']);
    const byB = await auditLog({ actor_id: await keyIdOf(b), operation: 'create_user' });
    expect(byB.events.map((e) => e.after?.username)).toEqual(['bob']);
    const onAda = await auditLog({ target_type: 'user', target_id: ada.user_id });
    expect(onAda.total).toBe(2);
    const dashed = ada.user_id.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
    expect((await auditLog({ target_id: dashed })).total).toBe(2);
    expect((await auditLog({ since: start })).total).toBe(3);
    expect((await auditLog({ until: start })).total).toBe(0);
    expect((await auditLog({ channel: 'console' })).total).toBe(0);
  });

  it('pages newest first by page number and by cursor, with the total', async () => {
    for (let i = 0; i < 5; i += 1) {
      await h.call('create_group', { target_group: { name: `group ${i}` } });
    }
    const names = (page: { events: AuditEventResponse[] }) => page.events.map((e) => e.after?.name);

    const first = await auditLog({ operation: 'create_group', page_size: 2 });
    expect(first).toMatchObject({ total: 5, page: 0, page_size: 2 });
    expect(names(first)).toEqual(['group 4', 'group 3']);
    const second = await auditLog({ operation: 'create_group', page_size: 2, page: 1 });
    expect(names(second)).toEqual(['group 2', 'group 1']);

    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = await auditLog({
        operation: 'create_group',
        page_size: 2,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...names(page));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['group 4', 'group 3', 'group 2', 'group 1', 'group 0']);
  });

  it('answers 400 for an unreadable cursor or a malformed time, never 500', async () => {
    for (const body of [{ cursor: 'nonsense' }, { since: 'yesterday' }, { page_size: 0 }]) {
      expect((await h.call('get_audit_log', body)).statusCode).toBe(400);
    }
  });
});
