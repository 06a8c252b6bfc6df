import type { LaunchPlan } from '../launch-plan';

/** What of a plan is baked into a container when it starts: a staged one must match the user's. */
const baked = (plan: LaunchPlan) =>
  JSON.stringify({
    image: plan.image.name,
    resources: plan.resources,
    profile: plan.persistentProfilePath,
    files: plan.fileMappings.map((m) => [m.destination, m.content, m.executable]),
    // Absent from sessions staged before fingerprints: they fit no one.
    config: plan.configFingerprint ?? null,
  });

/**
 * Whether a staged session can be handed to a user whose plan is `user`: it started with no
 * profile and only the workspace's own file mappings, so a user with a persistent profile or with
 * file mappings of their own or their groups' gets a launch of their own instead; and with the
 * workspace's run and exec config and allowances as they are now, not as they were.
 */
export function stagedFits(user: LaunchPlan, staged: LaunchPlan): boolean {
  return user.persistentProfilePath === null && baked(user) === baked(staged);
}
