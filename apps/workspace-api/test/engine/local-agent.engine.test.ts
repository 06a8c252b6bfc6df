import { testDockerHost } from '@platform/testing';
import { localAgentServices, localEngineUrl, registerLocalAgent } from '../../src/agents';
import { createHostAudit } from '../../src/audit';
import { enginePolicy } from '../../src/engines';
import { createEngines } from '../../src/docker';
import { createInstallationRepository } from '../../src/installation';
import { consoleOriginOf } from '../../src/zones';
import { createHarness, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const register = (dockerHost: string | undefined) => {
  // As `setup` builds them: the operator's DOCKER_HOST socket is allowed.
  const policy = enginePolicy({ ...h.config, DOCKER_HOST: dockerHost });
  const engines = createEngines({
    policy,
    log: { warn: () => undefined },
    installation: createInstallationRepository(h.data),
  });
  return registerLocalAgent({
    engines,
    ...localAgentServices(
      h.data,
      engines,
      policy,
      consoleOriginOf({ ...h.config, PORT: 3001, SESSION_PORT: 3003 }),
    ),
    dockerHost,
    port: 3001,
    record: createHostAudit(h.data, 'cli').record,
    sessionPort: 3003,
  });
};

describe('registerLocalAgent', () => {
  it('registers an answering engine once as agent "local" in zone "local", with what it detected, recorded in the audit trail', async () => {
    const first = await register(testDockerHost());
    expect(first).toMatchObject({ registered: true, url: testDockerHost(), created: true });
    const again = await register(testDockerHost());
    expect(again).toMatchObject({ registered: true, created: false });
    const agents = (await h.call('get_agents')).json().agents;
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ hostname: 'local', zone_name: 'local', status: 'online' });
    expect(agents[0].cores).toBeGreaterThan(0);
    const zone = (await h.call('get_zones')).json().zones[0];
    expect(zone).toMatchObject({
      name: 'local',
      proxy_hostname: '$request_host$',
      proxy_port: 3003,
      proxy_path: '/',
    });
    const events = await h.db.auditEvent.findMany({ orderBy: { createdAt: 'asc' } });
    expect(events.map((e) => [e.operation, e.channel, e.actorKind])).toEqual([
      ['create_zone', 'cli', 'system'],
      ['create_agent', 'cli', 'system'],
      ['update_agent', 'cli', 'system'],
    ]);
    expect(events[1]).toMatchObject({ targetId: agents[0].agent_id, before: null });
  });

  it('moves a zone "local" on the console’s own origin ($request_host$, port 0) to the sessions port', async () => {
    const zone = (await h.call('get_zones')).json().zones[0];
    const target_zone = { zone_id: zone.zone_id, proxy_hostname: '$request_host$', proxy_port: 0 };
    expect((await h.call('update_zone', { target_zone })).statusCode).toBe(200);
    await register(testDockerHost());
    expect((await h.call('get_zones')).json().zones[0]).toMatchObject({
      proxy_hostname: '$request_host$',
      proxy_port: 3003,
    });
  });

  it('moves a zone "local" still on the earlier default (localhost) to $request_host$', async () => {
    const zone = (await h.call('get_zones')).json().zones[0];
    const target_zone = { zone_id: zone.zone_id, proxy_hostname: 'localhost', proxy_port: 3001 };
    expect((await h.call('update_zone', { target_zone })).statusCode).toBe(200);
    await register(testDockerHost());
    expect((await h.call('get_zones')).json().zones[0]).toMatchObject({
      proxy_hostname: '$request_host$',
      proxy_port: 3003,
    });
  });

  it('leaves a zone "local" that an administrator set otherwise as it is', async () => {
    const zone = (await h.call('get_zones')).json().zones[0];
    for (const change of [
      { proxy_hostname: 'desk.example.com', proxy_port: 3001 },
      { proxy_hostname: 'localhost', proxy_port: 8443 },
    ]) {
      const target_zone = { zone_id: zone.zone_id, ...change };
      expect((await h.call('update_zone', { target_zone })).statusCode).toBe(200);
      await register(testDockerHost());
      expect((await h.call('get_zones')).json().zones[0]).toMatchObject(change);
    }
  });

  it('says why when no engine answers, and registers nothing', async () => {
    const result = await register('unix:///nonexistent/docker.sock');
    expect(result).toMatchObject({ registered: false, url: 'unix:///nonexistent/docker.sock' });
    expect(result.registered === false && result.reason).toMatch(/ENOENT/);
    const agents = (await h.call('get_agents')).json().agents;
    expect(agents.map((a: { docker_url: string }) => a.docker_url)).toEqual([testDockerHost()]);
  });
});

describe('localEngineUrl', () => {
  it('uses DOCKER_HOST when it is a socket or TCP address, else the default socket', () => {
    expect(localEngineUrl('tcp://10.0.0.5:2376')).toBe('tcp://10.0.0.5:2376');
    expect(localEngineUrl('unix:///run/user/1000/docker.sock')).toBe(
      'unix:///run/user/1000/docker.sock',
    );
    expect(localEngineUrl(undefined)).toBe('unix:///var/run/docker.sock');
    expect(localEngineUrl('ssh://me@host')).toBe('unix:///var/run/docker.sock');
  });
});
