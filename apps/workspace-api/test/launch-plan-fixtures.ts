import { type ConfigAllowances, NO_ALLOWANCES } from '../src/domain';
import type { LaunchPlan } from '../src/launch-plan';

const GB = 1024 ** 3;

/** A launch plan's agent with nothing allocated on it: all of its capacity is free. */
export const idlePlanAgent = (agent: Omit<LaunchPlan['agent'], 'free'>): LaunchPlan['agent'] => ({
  ...agent,
  free: agent.capacity,
});

/** A plan of user ada on the Terminal workspace, 1.5 cores and 2 GiB on agent-1, with a profile. */
export function samplePlan(
  overrides: Partial<LaunchPlan> = {},
  runConfig: unknown = {},
  allowances: ConfigAllowances = NO_ALLOWANCES,
): LaunchPlan {
  return {
    user: { id: 'u1', username: 'ada' },
    image: {
      id: 'i1',
      name: 'kasmweb/terminal:1.16.0',
      friendlyName: 'Terminal',
      dockerRegistry: '',
      registryId: null,
      runConfig,
      ...allowances,
    },
    resources: { cores: 1.5, memory: 2 * GB },
    allowedThrough: [],
    agent: idlePlanAgent({
      id: 'a1',
      hostname: 'agent-1',
      zone: { id: 'z1', name: 'default' },
      capacity: { cores: 8, memory: 16 * GB },
    }),
    sessionId: 'f00d',
    sessionUrl: 'https://desk.example.com/kasm/f00d/',
    persistentProfilePath: '/profiles/ada',
    fileMappings: [],
    execConfig: {},
    configFingerprint: 'c'.repeat(64),
    ...overrides,
  };
}
