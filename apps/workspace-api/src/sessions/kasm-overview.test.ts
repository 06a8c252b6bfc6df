import { toUuid } from '@platform/schemas';
import { userInput } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { createImage } from '../../test/image-factories';
import { createKasm } from '../../test/kasm-factories';
import { createKasmsRepository } from './kasms.repository';
import { lastDayHours, lastDayStart } from './sessions-overview';

// The console overview's aggregates over sessions, against PostgreSQL.
let h: Harness;
let place: { agentId: string; imageId: string };
let other: { agentId: string; imageId: string };
let users: string[];
beforeAll(async () => {
  h = await createHarness();
  const zone = (
    await h.call('create_zone', { target_zone: { name: 'z', proxy_hostname: 'x.example' } })
  ).json().zone;
  const agent = async (hostname: string) =>
    (
      await h.call('create_agent', {
        target_agent: { hostname, zone_id: zone.zone_id, cores: 4, memory: 2 ** 33 },
      })
    ).json().agent.agent_id as string;
  place = { agentId: toUuid(await agent('a-1')), imageId: toUuid(await createImage(h.db)) };
  other = { agentId: toUuid(await agent('b-1')), imageId: toUuid(await createImage(h.db)) };
  users = [];
  for (let i = 0; i < 3; i++)
    users.push(
      toUuid((await h.call('create_user', { target_user: userInput() })).json().user.user_id),
    );
});
afterAll(() => h?.close());
beforeEach(() => h.db.kasm.deleteMany());

const kasms = () => createKasmsRepository(h.data);
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
const MIN = 60_000;

describe('live sessions by workspace, agent and activity', () => {
  it('tells active from idle by the last input, keepalive or start, and counts only live sessions', async () => {
    const now = new Date();
    const running = (minutesAgo: Partial<Record<'input' | 'keepalive' | 'start', number>>) => ({
      status: 'running',
      startedAt: at(now, -(minutesAgo.start ?? 60) * MIN),
      lastInputAt: minutesAgo.input === undefined ? null : at(now, -minutesAgo.input * MIN),
      keepaliveAt: minutesAgo.keepalive === undefined ? null : at(now, -minutesAgo.keepalive * MIN),
    });
    const [u] = users;
    await createKasm(h.db, { userId: u, ...place, ...running({ input: 1 }) });
    await createKasm(h.db, { userId: u, ...place, ...running({ input: 30, keepalive: 2 }) });
    await createKasm(h.db, { userId: u, ...place, ...running({ start: 3 }) });
    await createKasm(h.db, { userId: u, ...place, ...running({ input: 6 }) });
    await createKasm(h.db, { userId: u, ...place, ...running({}) });
    await createKasm(h.db, { userId: u, ...other, status: 'stopped' });
    await createKasm(h.db, { userId: u, ...other, status: 'paused' });
    await createKasm(h.db, { userId: u, ...other, status: 'stopping' });
    await createKasm(h.db, { userId: u, ...other, status: 'requested' });
    await createKasm(h.db, { userId: u, ...other, status: 'provisioning' });
    await createKasm(h.db, { userId: null, ...other, ...running({ start: 90 }) });
    await createKasm(h.db, { userId: u, ...place, status: 'destroyed' });
    await createKasm(h.db, { userId: u, ...place, status: 'error' });

    const tallies = await kasms().liveTallies(now, 300);
    const key = (t: { agentId: string; imageId: string; activity: string; count: number }) =>
      `${t.agentId === place.agentId ? 'a' : 'b'}/${t.imageId === place.imageId ? 'x' : 'y'}/${t.activity}=${t.count}`;
    expect(tallies.map(key).sort()).toEqual(
      [
        'a/x/active=3',
        'a/x/idle=2',
        'b/y/asleep=2',
        'b/y/ending=1',
        'b/y/staged=1',
        'b/y/starting=2',
      ].sort(),
    );
  });

  it('lists the oldest live sessions of users first, up to the limit, without staged or ended ones', async () => {
    const now = new Date();
    const made = async (userId: string | null, minutesAgo: number, status = 'running') =>
      createKasm(h.db, {
        userId,
        ...place,
        status,
        createdAt: at(now, -minutesAgo * MIN),
        startedAt: at(now, -minutesAgo * MIN),
      });
    await made(null, 500);
    await made(users[0], 400, 'destroyed');
    const second = await made(users[1], 100);
    const first = await made(users[0], 200, 'paused');
    await made(users[2], 50);

    const oldest = await kasms().oldestLive(now, 300, 2);
    expect(oldest.map((row) => [row.id, row.userId, row.activity])).toEqual([
      [first, users[0], 'asleep'],
      [second, users[1], 'idle'],
    ]);
  });
});

describe('launches of the last day by the hour', () => {
  it('counts launches and failures before running, with the median and 95th percentile of launch time, inside the window only', async () => {
    const now = new Date();
    const since = lastDayStart(now);
    const launch = (createdAt: Date, launchSeconds: number | null, status = 'running') =>
      createKasm(h.db, {
        userId: users[0],
        ...place,
        status,
        createdAt,
        startedAt: launchSeconds === null ? null : at(createdAt, launchSeconds * 1000),
      });
    const hourOne = at(since, 60 * MIN + 5 * MIN);
    for (const seconds of [2, 4, 6, 8]) await launch(hourOne, seconds, 'destroyed');
    await launch(hourOne, null, 'error');
    // It ran, and its container vanished later: a launch that did not fail.
    await launch(at(since, 3 * 60 * MIN), 3, 'error');
    await launch(at(since, 23 * 60 * MIN), null, 'starting');
    await launch(at(since, -1), 1, 'destroyed');
    await launch(at(since, 24 * 60 * MIN), 1, 'running');

    const rows = await kasms().launchHours(since, at(since, 24 * 60 * MIN));
    expect(rows).toEqual([
      { slot: 1, launches: 5, failures: 1, medianSeconds: 5, p95Seconds: expect.closeTo(7.7, 6) },
      { slot: 3, launches: 1, failures: 0, medianSeconds: 3, p95Seconds: 3 },
      { slot: 23, launches: 1, failures: 0, medianSeconds: null, p95Seconds: null },
    ]);

    const hours = lastDayHours(now, rows);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toEqual({
      start: since,
      launches: 0,
      failures: 0,
      medianSeconds: null,
      p95Seconds: null,
    });
    expect(hours[1]).toMatchObject({ start: at(since, 60 * MIN), launches: 5, failures: 1 });
    expect(hours[23].start.getTime()).toBe(Math.floor(now.getTime() / (60 * MIN)) * 60 * MIN);
  });
});
