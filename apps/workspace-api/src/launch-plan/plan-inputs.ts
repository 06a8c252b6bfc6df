import { toUuid } from '@platform/schemas';
import type { Tx } from '../db';
import { type FileMappingsRepository, rowTarget } from '../file-mappings';
import type { ImagesRepository } from '../images';
import type { ZonesRepository } from '../zones';
import type { LaunchPlanInput } from './launch-plan';

export type PlanInputs = Omit<LaunchPlanInput, 'agents' | 'sessionId' | 'urlScheme'>;

/** The repositories a plan reads from, each the owner of its table. */
export interface PlanSources {
  users: { findById(id: string, tx?: Tx): Promise<{ id: string; username: string } | null> };
  groups: {
    ofUser(userId: string, imageId: string, tx?: Tx): Promise<LaunchPlanInput['groups']>;
  };
  images: Pick<ImagesRepository, 'find'>;
  zones: Pick<ZonesRepository, 'list'>;
  fileMappings: Pick<FileMappingsRepository, 'forLaunch'>;
}

/** What a plan depends on besides agents (inside `tx` when given), or which id matches nothing. */
export async function loadPlanInputs(
  sources: PlanSources,
  userId: string,
  imageId: string,
  tx?: Tx,
): Promise<PlanInputs | { missing: 'user' | 'image' }> {
  const [user, groups, image, zones] = await Promise.all([
    sources.users.findById(toUuid(userId), tx),
    sources.groups.ofUser(toUuid(userId), toUuid(imageId), tx),
    sources.images.find(toUuid(imageId), tx),
    sources.zones.list(tx),
  ]);
  if (!user) return { missing: 'user' };
  if (!image) return { missing: 'image' };
  const mappings = await sources.fileMappings.forLaunch(
    { imageId: image.id, userId: user.id, groupIds: groups.map((g) => g.id) },
    tx,
  );
  return {
    user: { id: user.id, username: user.username },
    groups,
    image: { ...image, memory: Number(image.memory) },
    zones,
    mappings: mappings.map((m) => ({ ...m, target: rowTarget(m) })),
  };
}

/** The id of the user a staged session is planned for: none (it matches no row). */
export const NO_USER = '00000000-0000-0000-0000-000000000000';

/**
 * What a staged session's plan depends on: the workspace and its own file mappings, for no user.
 * One group of no one grants the workspace; whoever takes the session is checked then.
 */
export async function loadStagingInputs(
  sources: PlanSources,
  imageId: string,
  tx?: Tx,
): Promise<PlanInputs | { missing: 'image' }> {
  const [image, zones, mappings] = await Promise.all([
    sources.images.find(toUuid(imageId), tx),
    sources.zones.list(tx),
    sources.fileMappings.forLaunch({ imageId: toUuid(imageId), userId: NO_USER, groupIds: [] }, tx),
  ]);
  if (!image) return { missing: 'image' };
  return {
    user: { id: NO_USER, username: '' },
    groups: [{ id: NO_USER, name: 'staging', priority: 0, imageIds: [image.id] }],
    image: { ...image, memory: Number(image.memory) },
    zones,
    mappings: mappings.map((m) => ({ ...m, target: rowTarget(m) })),
  };
}
