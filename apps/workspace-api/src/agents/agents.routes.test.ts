import { expectFieldErrors, type Harness, useHarness } from '../../test/harness';

const UNKNOWN = '11111111111111111111111111111111';
const GB = 1_000_000_000;

let h: Harness;
let zoneId: string;
useHarness((ready) => (h = ready));
beforeEach(async () => {
  zoneId = (
    await h.call('create_zone', {
      target_zone: { name: 'default', proxy_hostname: 'desk.example.com' },
    })
  ).json().zone.zone_id;
});

const createAgent = async (agent: Record<string, unknown> = {}) =>
  (
    await h.call('create_agent', {
      target_agent: { hostname: 'agent-1', zone_id: zoneId, cores: 8, memory: 16 * GB, ...agent },
    })
  ).json().agent;

describe('create_agent', () => {
  it('registers an agent; with no overrides its capacity is what it detected', async () => {
    const res = await h.call('create_agent', {
      target_agent: { hostname: 'Agent-1.Internal', zone_id: zoneId, cores: 8, memory: 16 * GB },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().agent).toEqual({
      agent_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      hostname: 'agent-1.internal',
      zone_id: zoneId,
      zone_name: 'default',
      docker_url: '',
      status: 'unknown',
      status_reason: '',
      last_heartbeat: null,
      cores: 8,
      memory: 16 * GB,
      cores_override: 0,
      memory_override: 0,
      capacity: { cores: 8, memory: 16 * GB },
      allocated: { cores: 0, memory: 0 },
      free: { cores: 8, memory: 16 * GB },
      created: expect.any(String),
      updated: expect.any(String),
    });
  });

  it('uses non-zero overrides as its capacity', async () => {
    const agent = await createAgent({ cores_override: 12, memory_override: 32 * GB });
    expect(agent.capacity).toEqual({ cores: 12, memory: 32 * GB });
  });

  it('answers 400 without a docker_url unless cores and memory are given', async () => {
    const res = await h.call('create_agent', {
      target_agent: { hostname: 'a', zone_id: zoneId, memory: GB },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        field: 'target_agent',
        message: 'needs cores and memory, or a docker_url to detect them from',
      },
    ]);
  });

  it('answers 400 for negative or fractional overrides and out-of-range resources, every problem listed', async () => {
    const broken = { cores: 0, memory: 0, cores_override: -1, memory_override: 1.5 };
    const res = await h.call('create_agent', {
      target_agent: { hostname: 'a', zone_id: zoneId, ...broken },
    });
    expectFieldErrors(
      res,
      Object.keys(broken).map((field) => `target_agent.${field}`),
    );
  });

  it('answers 404 ZONE_NOT_FOUND for an unknown zone and 409 AGENT_HOSTNAME_TAKEN, ignoring case', async () => {
    expect(
      (
        await h.call('create_agent', {
          target_agent: { hostname: 'a', zone_id: UNKNOWN, cores: 1, memory: 1 },
        })
      ).json().code,
    ).toBe('ZONE_NOT_FOUND');
    await createAgent();
    const res = await h.call('create_agent', {
      target_agent: { hostname: 'AGENT-1', zone_id: zoneId, cores: 1, memory: 1 },
    });
    expect([res.statusCode, res.json().code]).toEqual([409, 'AGENT_HOSTNAME_TAKEN']);
  });
});

describe('get_agents, update_agent, delete_agent', () => {
  it('lists agents by hostname', async () => {
    await createAgent({ hostname: 'b' });
    await createAgent({ hostname: 'a' });
    expect(
      (await h.call('get_agents')).json().agents.map((a: { hostname: string }) => a.hostname),
    ).toEqual(['a', 'b']);
  });

  it('records allocation and overrides, and reports what is free', async () => {
    const agent = await createAgent();
    const res = await h.call('update_agent', {
      target_agent: {
        agent_id: agent.agent_id,
        cores_override: 4,
        allocated_cores: 2.5,
        allocated_memory: 6 * GB,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().agent).toMatchObject({
      cores: 8,
      cores_override: 4,
      capacity: { cores: 4, memory: 16 * GB },
      allocated: { cores: 2.5, memory: 6 * GB },
      free: { cores: 1.5, memory: 10 * GB },
    });
    const reset = await h.call('update_agent', {
      target_agent: { agent_id: agent.agent_id, cores_override: 0 },
    });
    expect(reset.json().agent.capacity).toEqual({ cores: 8, memory: 16 * GB });
  });

  it('moves an agent to another zone', async () => {
    const agent = await createAgent();
    const eu = (
      await h.call('create_zone', { target_zone: { name: 'eu', proxy_hostname: 'eu.example.com' } })
    ).json().zone;
    const res = await h.call('update_agent', {
      target_agent: { agent_id: agent.agent_id, zone_id: eu.zone_id },
    });
    expect(res.json().agent).toMatchObject({ zone_id: eu.zone_id, zone_name: 'eu' });
  });

  it('answers 404 for an unknown agent or zone and 400 for a negative allocation', async () => {
    const agent = await createAgent();
    expect(
      (await h.call('update_agent', { target_agent: { agent_id: UNKNOWN, cores: 2 } })).json().code,
    ).toBe('AGENT_NOT_FOUND');
    expect(
      (
        await h.call('update_agent', {
          target_agent: { agent_id: agent.agent_id, zone_id: UNKNOWN },
        })
      ).json().code,
    ).toBe('ZONE_NOT_FOUND');
    expect(
      (
        await h.call('update_agent', {
          target_agent: { agent_id: agent.agent_id, allocated_cores: -1 },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await h.call('delete_agent', { target_agent: { agent_id: UNKNOWN } })).json().code,
    ).toBe('AGENT_NOT_FOUND');
  });

  it('deletes an agent', async () => {
    const agent = await createAgent();
    const res = await h.call('delete_agent', { target_agent: { agent_id: agent.agent_id } });
    expect([res.statusCode, res.json()]).toEqual([200, {}]);
    expect((await h.call('get_agents')).json().agents).toEqual([]);
  });
});

describe('agent permissions', () => {
  it('reads with settings.view and writes with settings.modify only', async () => {
    const agent = await createAgent();
    const viewer = await h.issueKey(['settings.view']);
    expect((await h.call('get_agents', {}, viewer)).statusCode).toBe(200);
    expect(
      (
        await h.call(
          'update_agent',
          { target_agent: { agent_id: agent.agent_id, cores: 2 } },
          viewer,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await h.call('delete_agent', { target_agent: { agent_id: agent.agent_id } }, viewer))
        .statusCode,
    ).toBe(403);
    expect((await h.call('get_agents', {}, await h.issueKey(['users.view']))).statusCode).toBe(403);
    const modifier = await h.issueKey(['settings.modify']);
    expect(
      (
        await h.call(
          'update_agent',
          { target_agent: { agent_id: agent.agent_id, cores: 2 } },
          modifier,
        )
      ).statusCode,
    ).toBe(200);
  });
});
