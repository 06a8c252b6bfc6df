import { setTimeout as sleep } from 'node:timers/promises';
import { toUuid } from '@platform/schemas';
import { createHarness, type Harness } from '../harness';
import { createGroup } from '../group-factories';
import { signedInWith } from './admin-fixtures';
import { postMultipart } from './admin-multipart';

// The console's apply plans twice (a dry run to compare with what the person saw, then the apply
// in its own transaction). What the person may write is judged on the second plan: a change that
// lands between the two must not slip a grant past them.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const planOf = (page: string) => /name="plan" value="([0-9a-f]{64})"/.exec(page)?.[1] ?? '';
const SETTINGS = `version: 1
zones:
  - {name: raced, proxy_hostname: raced.example.com, proxy_port: 0}
groups:
  - {name: Operators, permissions: [global_admin]}
`;
/** The settings repository's lock for applies in the service's schema (`workspace`). */
const LOCK_KEY = 'workspace-api settings apply workspace';

/** Transactions of this database waiting for an advisory lock (the settings applies' lock). */
async function waiters(): Promise<number> {
  const [row] = await h.db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_locks
    WHERE locktype = 'advisory' AND NOT granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
  return row.n;
}

async function untilWaiters(n: number): Promise<void> {
  for (let tries = 0; tries < 600 && (await waiters()) < n; tries++) await sleep(50);
  expect(await waiters()).toBe(n);
}

type Tx = Parameters<Parameters<Harness['db']['$transaction']>[0]>[0];

/** Runs `work` inside a transaction holding the settings applies' lock. */
function underApplyLock(work: (tx: Tx) => Promise<void>) {
  return h.db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${LOCK_KEY}))`;
      await work(tx);
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
}

describe('the Settings as code apply', () => {
  it('judges the grants on what the apply writes, in its transaction, not on the dry run before it', async () => {
    const { client } = await signedInWith(h, ['settings.view', 'settings.modify', 'groups.modify']);
    const group = await createGroup(h, { name: 'Operators', permissions: ['global_admin'] });
    await client.get('/admin/settings');
    const plan = await postMultipart(h, client, '/admin/settings/plan', {}, { file: SETTINGS });
    expect(plan.body).toContain('1 to create, 0 to update');

    let release: (value?: unknown) => void = Promise.resolve;
    const held = new Promise((resolve) => (release = resolve));
    let locked = false;
    const holder = underApplyLock(async () => {
      locked = true;
      await held;
    });
    for (let tries = 0; tries < 600 && !locked; tries++) await sleep(50);
    const applying = postMultipart(h, client, '/admin/settings/apply', {
      file: SETTINGS,
      plan: planOf(plan.body),
    });
    await untilWaiters(1);
    // An administrator takes global_admin from Operators after the dry run, before the apply.
    const revoke = underApplyLock(async (tx) => {
      await tx.group.update({ where: { id: toUuid(group.group_id) }, data: { permissions: [] } });
    });
    await untilWaiters(2);
    release();
    await holder;
    await revoke;
    const applied = await applying;

    expect(applied.statusCode).toBe(403);
    expect(applied.body).toContain('global_admin');
    const stored = await h.db.group.findFirstOrThrow({ where: { name: 'Operators' } });
    expect(stored.permissions).toEqual([]);
    expect(await h.db.zone.count({ where: { name: 'raced' } })).toBe(0);
  });
});
