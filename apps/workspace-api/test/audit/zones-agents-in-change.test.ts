import { describeInChange } from './audit-in-change';
import type { Harness } from '../harness';

// Every write of zones and agents writes its audit event in the change's own transaction, with
// the zone's agent count and the agent's zone and reservations read in it.

type Wire = Record<string, Record<string, string>>;

async function zone(h: Harness, name = 'eu') {
  const res = await h.call('create_zone', {
    target_zone: { name, proxy_hostname: 'desk.example.com' },
  });
  expect(res.statusCode).toBe(200);
  return res.json().zone.zone_id as string;
}
async function agent(h: Harness) {
  const zoneId = await zone(h);
  const res = await h.call('create_agent', {
    target_agent: { hostname: 'planner', zone_id: zoneId, cores: 8, memory: 2 ** 34 },
  });
  expect(res.statusCode).toBe(200);
  return { zoneId, agentId: res.json().agent.agent_id as string };
}
const zones = (h: Harness) => h.db.zone.findMany({ select: { name: true, proxyPort: true } });
const agents = (h: Harness) => h.db.agent.findMany({ select: { hostname: true, cores: true } });

describeInChange([
  {
    operation: 'create_zone',
    table: 'zone',
    arrange: async () => ({ target_zone: { name: 'eu', proxy_hostname: 'desk.example.com' } }),
    state: zones,
    targetId: (_body, answer) => answer.zone.zone_id,
    snapshots: (before, after) => {
      expect(before).toBeNull();
      expect(after).toMatchObject({ name: 'eu', agent_count: 0 });
    },
  },
  {
    operation: 'update_zone',
    table: 'zone',
    arrange: async (h) => ({ target_zone: { zone_id: (await agent(h)).zoneId, proxy_port: 8443 } }),
    state: zones,
    targetId: (body: Wire) => body.target_zone.zone_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ proxy_port: 443, agent_count: 1 });
      expect(after).toMatchObject({ proxy_port: 8443, agent_count: 1 });
    },
  },
  {
    operation: 'delete_zone',
    table: 'zone',
    arrange: async (h) => ({ target_zone: { zone_id: await zone(h) } }),
    state: zones,
    targetId: (body: Wire) => body.target_zone.zone_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ name: 'eu', agent_count: 0 });
      expect(after).toBeNull();
    },
  },
  {
    operation: 'create_agent',
    table: 'agent',
    arrange: async (h) => ({
      target_agent: { hostname: 'planner', zone_id: await zone(h), cores: 8, memory: 2 ** 34 },
    }),
    state: agents,
    targetId: (_body, answer) => answer.agent.agent_id,
    snapshots: (before, after) => {
      expect(before).toBeNull();
      expect(after).toMatchObject({ hostname: 'planner', zone_name: 'eu', cores: 8 });
    },
  },
  {
    operation: 'update_agent',
    table: 'agent',
    arrange: async (h) => ({ target_agent: { agent_id: (await agent(h)).agentId, cores: 16 } }),
    state: agents,
    targetId: (body: Wire) => body.target_agent.agent_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ cores: 8, zone_name: 'eu', allocated: { cores: 0 } });
      expect(after).toMatchObject({ cores: 16, zone_name: 'eu', allocated: { cores: 0 } });
    },
  },
  {
    operation: 'delete_agent',
    table: 'agent',
    arrange: async (h) => ({ target_agent: { agent_id: (await agent(h)).agentId } }),
    state: agents,
    targetId: (body: Wire) => body.target_agent.agent_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ hostname: 'planner' });
      expect(after).toBeNull();
    },
  },
]);
