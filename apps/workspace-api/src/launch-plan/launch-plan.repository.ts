import { toUuid } from '@platform/schemas';
import type { DbClient } from '../db';
import { rowTarget } from '../file-mappings/mapping-target';
import type { LaunchPlanInput } from './launch-plan';

export type PlanInputs = Omit<LaunchPlanInput, 'agents' | 'sessionId' | 'urlScheme'>;

/** What a plan depends on besides agents, or null for the id that matches nothing. */
export async function loadPlanInputs(
  db: DbClient,
  userId: string,
  imageId: string,
): Promise<PlanInputs | { missing: 'user' | 'image' }> {
  const [user, image, zones] = await Promise.all([
    db.user.findUnique({
      where: { id: toUuid(userId) },
      select: {
        id: true,
        username: true,
        groups: {
          select: {
            group: {
              select: {
                id: true,
                name: true,
                priority: true,
                images: { where: { imageId: toUuid(imageId) }, select: { imageId: true } },
              },
            },
          },
        },
      },
    }),
    db.image.findUnique({ where: { id: toUuid(imageId) } }),
    db.zone.findMany(),
  ]);
  if (!user) return { missing: 'user' };
  if (!image) return { missing: 'image' };
  const groups = user.groups.map(({ group }) => ({
    ...group,
    imageIds: group.images.map((i) => i.imageId),
  }));
  const mappings = await db.fileMapping.findMany({
    where: {
      OR: [
        { imageId: image.id },
        { userId: user.id },
        { groupId: { in: groups.map((g) => g.id) } },
      ],
    },
  });
  return {
    user: { id: user.id, username: user.username },
    groups,
    image: { ...image, memory: Number(image.memory) },
    zones,
    mappings: mappings.map((m) => ({ ...m, target: rowTarget(m) })),
  };
}
