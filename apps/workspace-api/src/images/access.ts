export interface AccessInput {
  enabled: boolean;
  /** The user's groups whose Allowed Workspaces include the workspace. */
  grantingGroups: readonly { name: string }[];
}

export interface AccessDecision {
  allowed: boolean;
  reason: string;
}

/** A user may use a workspace iff it is enabled and on the list of at least one of their groups. */
export function decideAccess({ enabled, grantingGroups }: AccessInput): AccessDecision {
  if (grantingGroups.length === 0) {
    return {
      allowed: false,
      reason: "The workspace is not on the Allowed Workspaces of any of the user's groups",
    };
  }
  if (!enabled) return { allowed: false, reason: 'The workspace is disabled' };
  const names = grantingGroups.map((g) => `"${g.name}"`).join(', ');
  return {
    allowed: true,
    reason: `Allowed through ${grantingGroups.length === 1 ? 'group' : 'groups'} ${names}`,
  };
}
