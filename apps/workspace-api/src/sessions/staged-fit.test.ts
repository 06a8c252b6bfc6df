import { samplePlan } from '../../test/launch-plan-fixtures';
import type { LaunchPlan } from '../launch-plan';
import { stagedFits } from './staged-fit';

const mapping = (
  destination: string,
  content: string,
  type: 'image' | 'group' | 'user' = 'image',
): LaunchPlan['fileMappings'][number] => ({
  id: destination,
  name: destination,
  description: '',
  destination,
  content,
  executable: false,
  target: { type, id: type },
  source: { type, id: type, name: type },
});
const staged = samplePlan({
  user: { id: '0', username: '' },
  persistentProfilePath: null,
  fileMappings: [mapping('/etc/a', 'A')],
});
const userPlan = (overrides: Partial<LaunchPlan>) =>
  samplePlan({ persistentProfilePath: null, fileMappings: [mapping('/etc/a', 'A')], ...overrides });

describe('stagedFits', () => {
  it("fits a user whose plan makes the same container: the workspace's own mappings, no profile", () => {
    expect(stagedFits(userPlan({}), staged)).toBe(true);
  });

  it('does not fit a user with a persistent profile', () => {
    expect(stagedFits(userPlan({ persistentProfilePath: '/profiles/ada' }), staged)).toBe(false);
  });

  it('does not fit a user whose own or group mappings add, or replace, a file', () => {
    const added = [mapping('/etc/a', 'A'), mapping('/etc/b', 'B', 'user')];
    expect(stagedFits(userPlan({ fileMappings: added }), staged)).toBe(false);
    const replaced = [mapping('/etc/a', 'group A', 'group')];
    expect(stagedFits(userPlan({ fileMappings: replaced }), staged)).toBe(false);
  });

  it('does not fit once the workspace changed its image or resources since staging', () => {
    const image = { ...staged.image, name: 'kasmweb/terminal:1.17.0' };
    expect(stagedFits(userPlan({ image }), staged)).toBe(false);
    expect(stagedFits(userPlan({ resources: { cores: 4, memory: 1 } }), staged)).toBe(false);
  });

  it("does not fit once the workspace's run or exec config or allowances changed since staging", () => {
    expect(stagedFits(userPlan({ configFingerprint: 'd'.repeat(64) }), staged)).toBe(false);
    const stagedBefore = { ...staged } as Partial<LaunchPlan>;
    delete stagedBefore.configFingerprint;
    expect(stagedFits(userPlan({}), stagedBefore as LaunchPlan)).toBe(false);
  });
});
