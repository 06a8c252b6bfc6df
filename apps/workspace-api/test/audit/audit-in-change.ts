import { toWireId } from '@platform/schemas';
import { useHarness, type Harness } from '../harness';

// The proof that an API write records its success event in its own transaction (route config
// `auditInChange`): the change and the event share a transaction, and a refused event insert
// rolls the change back. Triggers made here note the transaction of each change to the changed
// table and of each event insert (txid_current(): a deleted row leaves no xmin to compare, and a
// row written under a savepoint has its subtransaction's as xmin).

/** A request's body or answer: objects of fields, as the tests read them. */
type Wire = Record<string, Record<string, string>>;

/** One converted write, as a feature's audit test states it. */
export interface InChangeCase {
  operation: string;
  /** The table the change writes. */
  table: string;
  /**
   * The statements on `table` that are the change (default every insert, update and delete):
   * `INSERT` for a change that later work (a launch) goes on updating.
   */
  statements?: string;
  /**
   * Only the rows whose new values match this SQL condition are the change (`NEW.status =
   * 'stopped'`): for a change that other statements on the table come before or after.
   */
  when?: string;
  /** Makes what the change acts on; answers the request's body. */
  arrange: (h: Harness) => Promise<object>;
  /** What a refused event must leave as it was (read before and after the request). */
  state: (h: Harness) => Promise<unknown>;
  /** The event's target id, from the body sent or the answer. */
  targetId: (body: Wire, answer: Wire) => string;
  /** What the event's snapshots must show, beyond a target before or after. */
  snapshots?: (before: unknown, after: unknown, h: Harness) => void | Promise<void>;
}

const SCHEMA = 'audit_in_change_test';

async function installTriggers(h: Harness) {
  await h.db.$executeRawUnsafe(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
  await h.db.$executeRawUnsafe(`CREATE TABLE ${SCHEMA}.change (xid text NOT NULL)`);
  await h.db.$executeRawUnsafe(`CREATE FUNCTION ${SCHEMA}.note() RETURNS trigger
    LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO ${SCHEMA}.change VALUES ((txid_current() % 4294967296)::text);
      RETURN NULL; END $$`);
  await h.db.$executeRawUnsafe(`CREATE TABLE ${SCHEMA}.event (id uuid, xid text NOT NULL)`);
  await h.db.$executeRawUnsafe(`CREATE FUNCTION ${SCHEMA}.note_event() RETURNS trigger
    LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO ${SCHEMA}.event VALUES (NEW.id, (txid_current() % 4294967296)::text);
      RETURN NULL; END $$`);
  await h.db.$executeRawUnsafe(`CREATE TRIGGER note_event AFTER INSERT ON "workspace"."audit_event"
    FOR EACH ROW EXECUTE FUNCTION ${SCHEMA}.note_event()`);
  await h.db.$executeRawUnsafe(`CREATE FUNCTION ${SCHEMA}.refuse() RETURNS trigger
    LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
}

/** Runs both proofs for every case, on one harness (with `env`) of the calling test file. */
export function describeInChange(cases: InChangeCase[], env: Record<string, string> = {}) {
  let h: Harness;
  useHarness((ready) => (h = ready), env);
  beforeAll(() => installTriggers(h));
  // The schema goes with the harness's database.
  let noted: string | null = null;
  afterEach(async () => {
    await h.db.$executeRawUnsafe('DROP TRIGGER IF EXISTS refuse ON "workspace"."audit_event"');
    if (noted)
      await h.db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS note ON "workspace"."${noted}"`);
    await h.db.$executeRawUnsafe(`TRUNCATE ${SCHEMA}.change, ${SCHEMA}.event`);
    noted = null;
  });

  const eventXid = async (id: string) =>
    (
      await h.db.$queryRawUnsafe<{ xid: string }[]>(
        `SELECT xid FROM ${SCHEMA}.event WHERE id = $1::uuid`,
        id,
      )
    )[0].xid;
  const changeXids = async () =>
    (
      await h.db.$queryRawUnsafe<{ xid: string }[]>(`SELECT DISTINCT xid FROM ${SCHEMA}.change`)
    ).map((row) => row.xid);

  describe.each(cases)('$operation from the API', (c) => {
    it('writes the change and its success event in one transaction', async () => {
      const body = await c.arrange(h);
      noted = c.table;
      await h.db.$executeRawUnsafe(`CREATE TRIGGER note
        AFTER ${c.statements ?? 'INSERT OR UPDATE OR DELETE'} ON "workspace"."${c.table}"
        FOR EACH ${c.when ? `ROW WHEN (${c.when})` : 'STATEMENT'} EXECUTE FUNCTION ${SCHEMA}.note()`);
      const res = await h.call(c.operation, body);
      expect({
        status: res.statusCode,
        answer: res.statusCode === 200 ? null : res.json(),
      }).toEqual({
        status: 200,
        answer: null,
      });
      const events = await h.db.auditEvent.findMany({ where: { operation: c.operation } });
      expect(events).toEqual([
        expect.objectContaining({ result: 'success', status: 200, channel: 'api' }),
      ]);
      const [event] = events;
      expect(toWireId(event.targetId ?? '')).toBe(toWireId(c.targetId(body as Wire, res.json())));
      expect(event.before ?? event.after).not.toBeNull();
      await c.snapshots?.(event.before, event.after, h);
      expect(await changeXids()).toEqual([await eventXid(event.id)]);
    });

    it('makes no change when its success event cannot be written', async () => {
      const body = await c.arrange(h);
      const was = await c.state(h);
      await h.db.$executeRawUnsafe(`CREATE TRIGGER refuse BEFORE INSERT ON "workspace"."audit_event"
        FOR EACH ROW WHEN (NEW.result = 'success') EXECUTE FUNCTION ${SCHEMA}.refuse()`);
      const res = await h.call(c.operation, body);
      expect(res.statusCode).toBe(500);
      expect(await c.state(h)).toEqual(was);
      expect(await h.db.auditEvent.findMany({ where: { operation: c.operation } })).toEqual([
        expect.objectContaining({ result: 'failed', status: 500 }),
      ]);
    });
  });
}
