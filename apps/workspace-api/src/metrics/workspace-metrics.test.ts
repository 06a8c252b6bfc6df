import { parseExposition, sampleSum } from '@platform/metrics';
import { dashboardNamesMissing, waitFor } from '@platform/testing';
import { userInput } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { createImage } from '../../test/image-factories';
import { createKasm } from '../../test/kasm-factories';

const TOKEN = 'workspace-metrics-token-xxxxxxxxx';
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    METRICS_TOKEN: TOKEN,
    SESSION_WORKER: 'on',
    SESSION_SWEEP_INTERVAL_MS: '50',
  });
});
afterAll(() => h.close());

async function scrape() {
  const res = await h.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return parseExposition(res.body);
}

/** A session recorded in the database as `status` on a planning agent (no engine runs here). */
async function recordedSession(status: string, image: string, agentId: string) {
  const user = (await h.call('create_user', { target_user: userInput() })).json().user;
  await createKasm(h.db, { userId: user.user_id, imageId: image, agentId, status, cores: 1.5 });
}

describe('workspace-api /metrics', () => {
  it('exports every metric the Grafana dashboard reads of workspace-api', async () => {
    const parsed = await scrape();
    expect(dashboardNamesMissing(parsed.types.keys(), 'calendar_')).toEqual([]);
  });

  it("counts live sessions by status and workspace, and each agent's capacity and use, from the database", async () => {
    const zone = (
      await h.call('create_zone', { target_zone: { name: 'metered', proxy_hostname: 'x.example' } })
    ).json().zone;
    const agent = (
      await h.call('create_agent', {
        target_agent: { hostname: 'planner', zone_id: zone.zone_id, cores: 8, memory: 2 ** 34 },
      })
    ).json().agent;
    const image = await createImage(h.db, { name: 'metrics/desk:1' });
    await recordedSession('running', image, agent.agent_id);
    await recordedSession('running', image, agent.agent_id);
    await recordedSession('starting', image, agent.agent_id);
    await recordedSession('destroyed', image, agent.agent_id);

    const parsed = await scrape();
    const sessions = (status: string) =>
      sampleSum(parsed, 'workspace_sessions', { status, workspace: 'metrics/desk:1' });
    expect(sessions('running')).toBe(2);
    expect(sessions('starting')).toBe(1);
    expect(parsed.samples.some((s) => s.labels.status === 'destroyed')).toBe(false);
    const ofAgent = (name: string) => sampleSum(parsed, name, { agent: 'planner' });
    // A planning agent (no engine address) is never checked: not up.
    expect(ofAgent('workspace_agent_up')).toBe(0);
    expect(ofAgent('workspace_agent_capacity_cores')).toBe(8);
    expect(ofAgent('workspace_agent_capacity_memory_bytes')).toBe(2 ** 34);
    expect(ofAgent('workspace_agent_used_cores')).toBe(4.5);
    expect(ofAgent('workspace_agent_used_memory_bytes')).toBe(3 * 2 ** 30);
  });

  it("measures the session worker's rounds: how late each began and how long it ran", async () => {
    const counted = await waitFor(async () => {
      const parsed = await scrape();
      const loop = { loop: 'session-worker' };
      const rounds = sampleSum(parsed, 'background_round_duration_seconds_count', loop);
      if (rounds < 3) throw new Error(`${rounds} rounds so far`);
      return { parsed, rounds, loop };
    }, 30_000);
    const lateness = sampleSum(
      counted.parsed,
      'background_round_lateness_seconds_count',
      counted.loop,
    );
    expect(lateness).toBe(counted.rounds);
  });
});
