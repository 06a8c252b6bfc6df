import { agentCapacity, agentFree, chooseAgent, rankAgents, type AgentResources } from './capacity';

const GB = 1_000_000_000;

function agent(hostname: string, overrides: Partial<AgentResources> = {}): AgentResources {
  return {
    hostname,
    cores: 8,
    memory: 32 * GB,
    coresOverride: 0,
    memoryOverride: 0,
    allocatedCores: 0,
    allocatedMemory: 0,
    ...overrides,
  };
}

describe('agentCapacity', () => {
  it('uses the detected cores and memory when the overrides are 0', () => {
    expect(agentCapacity(agent('a'))).toEqual({ cores: 8, memory: 32 * GB });
  });

  it('uses each non-zero override instead of what was detected, independently', () => {
    expect(agentCapacity(agent('a', { coresOverride: 12 }))).toEqual({
      cores: 12,
      memory: 32 * GB,
    });
    expect(agentCapacity(agent('a', { memoryOverride: 16 * GB }))).toEqual({
      cores: 8,
      memory: 16 * GB,
    });
    expect(agentCapacity(agent('a', { coresOverride: 2, memoryOverride: 64 * GB }))).toEqual({
      cores: 2,
      memory: 64 * GB,
    });
  });
});

describe('agentFree', () => {
  it('subtracts what is allocated from the capacity', () => {
    expect(agentFree(agent('a', { allocatedCores: 2.5, allocatedMemory: 4 * GB }))).toEqual({
      cores: 5.5,
      memory: 28 * GB,
    });
    expect(agentFree(agent('a', { coresOverride: 16, allocatedCores: 10 }))).toEqual({
      cores: 6,
      memory: 32 * GB,
    });
  });

  it('never goes below zero when an override is lowered under the allocation', () => {
    expect(
      agentFree(
        agent('a', {
          coresOverride: 2,
          allocatedCores: 6,
          memoryOverride: GB,
          allocatedMemory: 8 * GB,
        }),
      ),
    ).toEqual({
      cores: 0,
      memory: 0,
    });
  });
});

describe('chooseAgent', () => {
  const need = { cores: 2, memory: 4 * GB };

  it('picks the agent with the most free memory among those that fit', () => {
    const agents = [
      agent('a', { allocatedMemory: 20 * GB }),
      agent('b'),
      agent('c', { allocatedMemory: 10 * GB }),
    ];
    expect(chooseAgent(agents, need)).toMatchObject({
      agent: { hostname: 'b' },
      free: { cores: 8, memory: 32 * GB },
    });
  });

  it('breaks a tie in memory by free cores, then by hostname', () => {
    const byCores = [agent('a', { allocatedCores: 4 }), agent('b', { allocatedCores: 1 })];
    expect(chooseAgent(byCores, need).agent?.hostname).toBe('b');
    const byName = [agent('zeta'), agent('alpha'), agent('mid')];
    expect(chooseAgent(byName, need).agent?.hostname).toBe('alpha');
  });

  it('gives the same answer whatever order the agents come in', () => {
    const agents = [
      agent('a'),
      agent('b', { memoryOverride: 40 * GB }),
      agent('c', { coresOverride: 64 }),
    ];
    const answers = [agents, [...agents].reverse(), [agents[1], agents[2], agents[0]]].map(
      (list) => chooseAgent(list, need).agent?.hostname,
    );
    expect(answers).toEqual(['b', 'b', 'b']);
  });

  it('skips an agent whose detected resources are too small unless an override makes room', () => {
    const small = agent('small', { cores: 1, memory: 64 * GB });
    expect(chooseAgent([small], need).agent).toBeNull();
    expect(chooseAgent([{ ...small, coresOverride: 4 }], need).agent?.hostname).toBe('small');
  });

  it('skips an agent whose override is smaller than what it detected', () => {
    const capped = agent('capped', { memoryOverride: 2 * GB });
    expect(
      chooseAgent([capped, agent('other', { allocatedMemory: 27 * GB })], need).agent?.hostname,
    ).toBe('other');
  });

  it('accepts an exact fit, fractional cores included', () => {
    const exact = agent('exact', {
      cores: 4,
      allocatedCores: 2.5,
      memory: 5.5 * GB,
      allocatedMemory: 1.5 * GB,
    });
    expect(chooseAgent([exact], { cores: 1.5, memory: 4 * GB }).agent?.hostname).toBe('exact');
  });

  it('explains, agent by agent and sorted by hostname, why none fits', () => {
    const agents = [
      agent('b', { allocatedCores: 7 }),
      agent('a', { allocatedMemory: 30 * GB, allocatedCores: 7.5 }),
    ];
    expect(chooseAgent(agents, need)).toEqual({
      agent: null,
      refusals: [
        {
          hostname: 'a',
          reason: `0.5 free cores, needs 2; ${2 * GB} bytes free memory, needs ${4 * GB}`,
        },
        { hostname: 'b', reason: '1 free cores, needs 2' },
      ],
    });
  });

  it('answers no agent, with no refusals, when there are no agents', () => {
    expect(chooseAgent([], need)).toEqual({ agent: null, refusals: [] });
  });
});

describe('rankAgents', () => {
  const need = { cores: 2, memory: 4 * GB };

  it('orders every agent with room best first and leaves out those without', () => {
    const agents = [
      agent('full', { allocatedCores: 7 }),
      agent('half', { allocatedMemory: 16 * GB }),
      agent('empty'),
      agent('tied', { allocatedCores: 2 }),
    ];
    expect(rankAgents(agents, need).map((c) => [c.agent.hostname, c.free.cores])).toEqual([
      ['empty', 8],
      ['tied', 6],
      ['half', 8],
    ]);
  });

  it('starts with the agent chooseAgent picks', () => {
    const agents = [agent('b', { allocatedMemory: GB }), agent('a', { allocatedCores: 1 })];
    expect(rankAgents(agents, need)[0]).toEqual(chooseAgent(agents, need));
  });
});
