import type { LaunchPlan } from '../src/launch-plan';

/** A launch plan's agent with nothing allocated on it: all of its capacity is free. */
export const idlePlanAgent = (agent: Omit<LaunchPlan['agent'], 'free'>): LaunchPlan['agent'] => ({
  ...agent,
  free: agent.capacity,
});
