import { randomUUID } from 'node:crypto';
import { withFieldErrors } from '@platform/errors';
import { toUuid, toWireId } from '@platform/schemas';
import { agentResources } from '../agents/agent-response';
import type { Db } from '../db';
import {
  ImageNotFoundError,
  NoAgentAvailableError,
  UserNotFoundError,
  WorkspaceNotAllowedError,
} from '../errors';
import { rowTarget } from '../file-mappings/mapping-target';
import { resolveLaunchPlan, type LaunchPlan } from './launch-plan';

/** Loads what a launch plan depends on and resolves it with the pure resolveLaunchPlan. */
export function createLaunchPlanService({ db }: { db: Db }) {
  return {
    async plan(userId: string, imageId: string): Promise<LaunchPlan> {
      const [user, image, agents, zones] = await Promise.all([
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
        db.agent.findMany(),
        db.zone.findMany(),
      ]);
      if (!user) throw new UserNotFoundError(`user_id ${userId}`);
      if (!image) throw new ImageNotFoundError(`image_id ${imageId}`);
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

      const result = resolveLaunchPlan({
        user: { id: user.id, username: user.username },
        groups,
        image: { ...image, memory: Number(image.memory) },
        agents: agents.map((a) => ({ ...agentResources(a), id: a.id, zoneId: a.zoneId })),
        zones,
        mappings: mappings.map((m) => ({ ...m, target: rowTarget(m) })),
        sessionId: toWireId(randomUUID()),
      });
      if (result.outcome === 'not_allowed') throw new WorkspaceNotAllowedError(result.reason);
      if (result.outcome === 'no_agent') {
        const problems = result.refusals.map((r) => ({
          field: `agent ${r.hostname}`,
          message: r.reason,
        }));
        throw withFieldErrors(new NoAgentAvailableError(result.reason), problems);
      }
      return result.plan;
    },
  };
}
export type LaunchPlanService = ReturnType<typeof createLaunchPlanService>;
