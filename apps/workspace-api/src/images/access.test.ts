import { decideAccess } from './access';

describe('decideAccess', () => {
  it("allows an enabled workspace on one of the user's groups, naming the group", () => {
    expect(decideAccess({ enabled: true, grantingGroups: [{ name: 'Developers' }] })).toEqual({
      allowed: true,
      reason: 'Allowed through group "Developers"',
    });
  });

  it('names every group that grants it', () => {
    const decision = decideAccess({
      enabled: true,
      grantingGroups: [{ name: 'All Users' }, { name: 'Developers' }],
    });
    expect(decision).toEqual({
      allowed: true,
      reason: 'Allowed through groups "All Users", "Developers"',
    });
  });

  it('refuses a disabled workspace even when a group grants it', () => {
    expect(decideAccess({ enabled: false, grantingGroups: [{ name: 'Developers' }] })).toEqual({
      allowed: false,
      reason: 'The workspace is disabled',
    });
  });

  it('refuses a workspace no group of the user grants, enabled or not', () => {
    for (const enabled of [true, false]) {
      const decision = decideAccess({ enabled, grantingGroups: [] });
      expect(decision.allowed).toBe(false);
      expect(decision.reason).toMatch(/not on the Allowed Workspaces/);
    }
  });
});
