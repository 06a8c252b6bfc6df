import { resolveLaunchPlan, type LaunchPlanInput, type PlanAgent } from './launch-plan';

const GB = 1_000_000_000;
const USER_ID = '50faa543-9c57-4b51-8cd8-68dac9256e4b';
const IMAGE_ID = '6820f530-e0bf-4825-9f53-e7b01e175ea9';

function agent(hostname: string, zoneId: string, overrides: Partial<PlanAgent> = {}): PlanAgent {
  const resources = {
    cores: 8,
    memory: 16 * GB,
    coresOverride: 0,
    memoryOverride: 0,
    allocatedCores: 0,
    allocatedMemory: 0,
  };
  return { id: `agent-${hostname}`, hostname, zoneId, ...resources, ...overrides };
}

function input(overrides: Partial<LaunchPlanInput> = {}): LaunchPlanInput {
  return {
    user: { id: USER_ID, username: 'ada' },
    groups: [
      { id: 'g-all', name: 'All Users', priority: 4095, imageIds: [] },
      { id: 'g-dev', name: 'Developers', priority: 50, imageIds: [IMAGE_ID] },
    ],
    image: {
      id: IMAGE_ID,
      name: 'kasmweb/firefox:1.16.0',
      friendlyName: 'Firefox',
      enabled: true,
      dockerRegistry: 'https://index.docker.io/v1/',
      registryId: 'reg-1',
      cores: 2,
      memory: 2.768 * GB,
      persistentProfilePath: '/mnt/profiles/{username}/{image_id}',
      execConfig: { go: { cmd: 'xdg-open "$KASM_URL"' } },
      runConfig: { hostname: 'desk' },
      allowRootExec: false,
      allowPlainHttp: true,
    },
    agents: [agent('agent-1.internal', 'z-main')],
    zones: [
      {
        id: 'z-main',
        name: 'default',
        proxyHostname: 'desk.example.com',
        proxyPath: '/',
        proxyPort: 0,
      },
      {
        id: 'z-eu',
        name: 'eu',
        proxyHostname: 'eu.example.com',
        proxyPath: '/desktop/',
        proxyPort: 8443,
      },
    ],
    mappings: [],
    sessionId: 'f00d',
    ...overrides,
  };
}

const plan = (overrides: Partial<LaunchPlanInput> = {}) => {
  const result = resolveLaunchPlan(input(overrides));
  if (result.outcome !== 'planned') throw new Error(`expected a plan, got ${result.outcome}`);
  return result.plan;
};

describe('resolveLaunchPlan', () => {
  it('plans a session: image, resources, agent, session URL, profile path, exec_config', () => {
    expect(plan()).toEqual({
      user: { id: USER_ID, username: 'ada' },
      image: {
        id: IMAGE_ID,
        name: 'kasmweb/firefox:1.16.0',
        friendlyName: 'Firefox',
        dockerRegistry: 'https://index.docker.io/v1/',
        registryId: 'reg-1',
        runConfig: { hostname: 'desk' },
        allowRootExec: false,
        allowPlainHttp: true,
      },
      resources: { cores: 2, memory: 2.768 * GB },
      allowedThrough: [{ id: 'g-dev', name: 'Developers' }],
      agent: {
        id: 'agent-agent-1.internal',
        hostname: 'agent-1.internal',
        zone: { id: 'z-main', name: 'default' },
        capacity: { cores: 8, memory: 16 * GB },
        free: { cores: 8, memory: 16 * GB },
      },
      sessionId: 'f00d',
      sessionUrl: 'https://desk.example.com/kasm/f00d/',
      persistentProfilePath: '/mnt/profiles/ada/6820f530e0bf48259f53e7b01e175ea9',
      fileMappings: [],
      execConfig: { go: { cmd: 'xdg-open "https://desk.example.com/kasm/f00d/"' } },
      configFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it("refuses a workspace that is on none of the user's groups", () => {
    const groups = [{ id: 'g-all', name: 'All Users', priority: 4095, imageIds: ['another'] }];
    expect(resolveLaunchPlan(input({ groups }))).toEqual({
      outcome: 'not_allowed',
      reason: "The workspace is not on the Allowed Workspaces of any of the user's groups",
    });
  });

  it('refuses a disabled workspace even when a group allows it', () => {
    const image = { ...input().image, enabled: false };
    expect(resolveLaunchPlan(input({ image }))).toEqual({
      outcome: 'not_allowed',
      reason: 'The workspace is disabled',
    });
  });

  it('names every group that allows the workspace, by priority', () => {
    const groups = [
      { id: 'g-all', name: 'All Users', priority: 4095, imageIds: [IMAGE_ID] },
      { id: 'g-dev', name: 'Developers', priority: 50, imageIds: [IMAGE_ID] },
    ];
    expect(plan({ groups }).allowedThrough.map((g) => g.name)).toEqual(['Developers', 'All Users']);
  });

  it("builds the session URL from the chosen agent's zone, with its port when non-zero", () => {
    const agents = [
      agent('small', 'z-main', { memory: 4 * GB }),
      agent('big', 'z-eu', { memory: 64 * GB }),
    ];
    const result = plan({ agents });
    expect(result.agent.hostname).toBe('big');
    expect(result.sessionUrl).toBe('https://eu.example.com:8443/desktop/kasm/f00d/');
    expect(result.execConfig).toEqual({
      go: { cmd: 'xdg-open "https://eu.example.com:8443/desktop/kasm/f00d/"' },
    });
  });

  it('chooses by capacity with overrides: an override can make an agent the best or rule it out', () => {
    const agents = [
      agent('a', 'z-main', { memoryOverride: 48 * GB }),
      agent('b', 'z-main', { memory: 32 * GB }),
    ];
    expect(plan({ agents }).agent).toMatchObject({
      hostname: 'a',
      capacity: { cores: 8, memory: 48 * GB },
    });
    const capped = [
      agent('a', 'z-main', { coresOverride: 1 }),
      agent('b', 'z-main', { allocatedMemory: 12 * GB }),
    ];
    expect(plan({ agents: capped }).agent).toMatchObject({
      hostname: 'b',
      free: { cores: 8, memory: 4 * GB },
    });
  });

  it('answers no_agent with every refusal when no agent has room', () => {
    const agents = [
      agent('a', 'z-main', { allocatedCores: 7 }),
      agent('b', 'z-main', { memoryOverride: GB }),
    ];
    expect(resolveLaunchPlan(input({ agents }))).toEqual({
      outcome: 'no_agent',
      reason: `No agent has 2 cores and ${2.768 * GB} bytes of memory free`,
      refusals: [
        { hostname: 'a', reason: '1 free cores, needs 2' },
        { hostname: 'b', reason: `${GB} bytes free memory, needs ${2.768 * GB}` },
      ],
    });
  });

  it('answers no_agent when no agent is registered', () => {
    expect(resolveLaunchPlan(input({ agents: [] }))).toEqual({
      outcome: 'no_agent',
      reason: 'No agent is registered to run sessions',
      refusals: [],
    });
  });

  it('checks access before capacity: a refused workspace is refused even with no agents', () => {
    expect(resolveLaunchPlan(input({ agents: [], groups: [] })).outcome).toBe('not_allowed');
  });

  it('fills every profile path placeholder, and gives null when the workspace keeps no profile', () => {
    const image = (persistentProfilePath: string) => ({ ...input().image, persistentProfilePath });
    expect(
      plan({ image: image('s3://bucket/{user_id}/{image_id}/{username}') }).persistentProfilePath,
    ).toBe('s3://bucket/50faa5439c574b518cd868dac9256e4b/6820f530e0bf48259f53e7b01e175ea9/ada');
    expect(plan({ image: image('') }).persistentProfilePath).toBeNull();
  });

  it("merges the file mappings of the workspace, the user's groups and the user", () => {
    const m = (
      id: string,
      type: 'image' | 'group' | 'user',
      targetId: string,
      destination: string,
    ) => ({
      id,
      target: { type, id: targetId },
      name: id,
      description: '',
      destination,
      executable: false,
      content: id,
    });
    const mappings = [
      m('u', 'user', USER_ID, '/x'),
      m('g', 'group', 'g-dev', '/x'),
      m('w', 'image', IMAGE_ID, '/w'),
      m('other', 'group', 'g-x', '/o'),
    ];
    expect(plan({ mappings }).fileMappings.map((f) => [f.name, f.source.type])).toEqual([
      ['w', 'image'],
      ['g', 'group'],
    ]);
  });

  it('leaves an exec_config without $KASM_URL as it is', () => {
    const image = { ...input().image, execConfig: {} };
    expect(plan({ image }).execConfig).toEqual({});
  });
});
