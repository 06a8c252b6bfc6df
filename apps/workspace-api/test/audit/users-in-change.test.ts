import { createHarness, type Harness } from '../harness';
import { userActions, VALID_PASSWORD } from '../factories';
import { redact } from '../../src/audit';

// A user's change and its API audit event are one transaction: they commit, or roll back,
// together. Failures are forced by triggers this file creates in its own test database.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());
afterEach(async () => {
  await h.db.$executeRawUnsafe('DROP TRIGGER IF EXISTS refuse_event ON "workspace"."audit_event"');
  await h.db.$executeRawUnsafe('DROP TRIGGER IF EXISTS refuse_end ON "workspace"."login_session"');
  await h.db.$executeRawUnsafe('DROP FUNCTION IF EXISTS "workspace".refuse_in_test()');
});

const { createUser } = userActions(() => h);

async function refuse(table: 'audit_event' | 'login_session', trigger: string, when: string) {
  await h.db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION "workspace".refuse_in_test()
    RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
  await h.db.$executeRawUnsafe(`CREATE TRIGGER ${trigger} BEFORE ${when}
    ON "workspace"."${table}" ${table === 'audit_event' ? "FOR EACH ROW WHEN (NEW.result = 'success')" : 'FOR EACH STATEMENT'}
    EXECUTE FUNCTION "workspace".refuse_in_test()`);
}
/** Every success event (the API's own writes only: the harness seeds through the database). */
const successes = (operation: string) =>
  h.db.auditEvent.findMany({ where: { operation, result: 'success' } });
const failures = (operation: string) =>
  h.db.auditEvent.findMany({ where: { operation, result: 'failed' } });
const userRow = (username: string) => h.db.user.findUniqueOrThrow({ where: { username } });

/** The transaction that last wrote each row (xmin): equal only for rows of one transaction. */
async function writtenBy(table: 'user' | 'audit_event', id: string): Promise<string> {
  const [row] = await h.db.$queryRawUnsafe<{ xid: string }[]>(
    `SELECT xmin::text AS xid FROM "workspace"."${table}" WHERE id = $1::uuid`,
    id,
  );
  return row.xid;
}

/** The user as get_user answers it, as the trail keeps it. */
async function snapshotOf(userId: string) {
  const user = (await h.call('get_user', { target_user: { user_id: userId } })).json().user;
  delete user.kasms;
  return redact(user);
}

describe('update_user and its audit event', () => {
  it('writes the change and its event in one transaction, with the user before and after as get_user shows it', async () => {
    const user = await createUser({ first_name: 'Ada', password: VALID_PASSWORD });
    const before = await snapshotOf(user.user_id);
    const res = await h.call('update_user', {
      target_user: { user_id: user.user_id, first_name: 'Augusta' },
    });
    expect(res.statusCode).toBe(200);

    const [event] = await successes('update_user');
    expect(event).toMatchObject({ targetId: user.user_id, status: 200 });
    expect(event.before).toEqual(before);
    expect(event.after).toEqual(await snapshotOf(user.user_id));
    expect(event.after).toMatchObject({ first_name: 'Augusta', password_set_date: '[redacted]' });
    const row = await userRow(user.username);
    expect(await writtenBy('audit_event', event.id)).toBe(await writtenBy('user', row.id));
  });

  it('rolls the change back when its audit event cannot be written', async () => {
    const user = await createUser({ first_name: 'Ada' });
    await refuse('audit_event', 'refuse_event', 'INSERT');
    const res = await h.call('update_user', {
      target_user: { user_id: user.user_id, first_name: 'Augusta' },
    });
    expect(res.statusCode).toBe(500);
    expect((await userRow(user.username)).firstName).toBe('Ada');
    expect(await successes('update_user')).toEqual([]);
    expect(await failures('update_user')).toEqual([expect.objectContaining({ status: 500 })]);
  });

  it('leaves neither the change nor a success event when the transaction fails after the change', async () => {
    const user = await createUser({ first_name: 'Ada', password: VALID_PASSWORD });
    const set = (await userRow(user.username)).passwordSetDate;
    // A new password ends the user's login sessions in the same transaction, after the update.
    await refuse('login_session', 'refuse_end', 'DELETE');
    const res = await h.call('update_user', {
      target_user: { user_id: user.user_id, first_name: 'Augusta', password: `${VALID_PASSWORD}x` },
    });
    expect(res.statusCode).toBe(500);
    const row = await userRow(user.username);
    expect({ firstName: row.firstName, set: row.passwordSetDate }).toEqual({
      firstName: 'Ada',
      set,
    });
    expect(await successes('update_user')).toEqual([]);
    expect(await failures('update_user')).toEqual([expect.objectContaining({ status: 500 })]);
  });

  it('records no success for a user that does not exist, and the 404 as before', async () => {
    const res = await h.call('update_user', {
      target_user: { user_id: '0123456789abcdef0123456789abcdef', first_name: 'X' },
    });
    expect(res.statusCode).toBe(404);
    expect(await successes('update_user')).toEqual([]);
    expect(await failures('update_user')).toEqual([
      expect.objectContaining({ status: 404, errorCode: 'USER_NOT_FOUND' }),
    ]);
  });
});

describe('create_user and its audit event', () => {
  it('writes the user and its event in one transaction', async () => {
    const res = await h.call('create_user', { target_user: { username: 'ada' } });
    expect(res.statusCode).toBe(200);
    const [event] = await successes('create_user');
    expect(event).toMatchObject({ targetId: res.json().user.user_id, before: null });
    expect(event.after).toEqual(await snapshotOf(res.json().user.user_id));
    const row = await userRow('ada');
    expect(await writtenBy('audit_event', event.id)).toBe(await writtenBy('user', row.id));
  });

  it('creates no user when its audit event cannot be written', async () => {
    await refuse('audit_event', 'refuse_event', 'INSERT');
    const res = await h.call('create_user', { target_user: { username: 'ada' } });
    expect(res.statusCode).toBe(500);
    expect(await h.db.user.count({ where: { username: 'ada' } })).toBe(0);
    expect(await failures('create_user')).toEqual([expect.objectContaining({ status: 500 })]);
  });
});
