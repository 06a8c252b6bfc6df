import { randomUUID } from 'node:crypto';
import { withFieldErrors } from '@platform/errors';
import { toUuid, toWireId } from '@platform/schemas';
import { agentResources, type AgentsRepository } from '../agents';
import type { Tx } from '../db';
import {
  ImageNotFoundError,
  NoAgentAvailableError,
  UserNotFoundError,
  WorkspaceNotAllowedError,
} from '../errors';
import { workspaceConfigFingerprint } from './config-fingerprint';
import { resolveLaunchPlan, type LaunchPlan, type PlanAgent } from './launch-plan';
import type { RequestHost } from '../domain';
import {
  loadPlanInputs,
  loadStagingInputs,
  type PlanInputs,
  type PlanSources,
} from './plan-inputs';
import type { TargetUser } from '../api';

export interface PlanOptions {
  /** The agents a session may go to; every agent when omitted (get_launch_plan). */
  agents?: readonly PlanAgent[];
  /** Agents left out before planning, with why; reported beside the plan's own refusals. */
  refusals?: readonly { hostname: string; reason: string }[];
  sessionId?: string;
  /** The host the request came to: a `$request_host$` zone's session URL uses it. */
  requestHost?: RequestHost;
}

/** Loads what a launch plan depends on and resolves it with the pure resolveLaunchPlan. */
/** What launch plans need of the users feature: its one resolver of `target_user`. */
export interface PlanUsers {
  idOf(target: TargetUser): Promise<string>;
}

export function createLaunchPlanService({
  sources,
  agents: agentRows,
  users,
  urlScheme,
}: {
  sources: PlanSources;
  agents: Pick<AgentsRepository, 'list'>;
  users: PlanUsers;
  urlScheme: string;
}) {
  async function resolve(
    inputs: PlanInputs,
    tx: Tx | undefined,
    options: PlanOptions,
  ): Promise<LaunchPlan> {
    const agents =
      options.agents ??
      (await agentRows.list(tx)).map((a) => ({
        ...agentResources(a),
        id: a.id,
        zoneId: a.zoneId,
      }));
    const result = resolveLaunchPlan({
      ...inputs,
      agents,
      urlScheme,
      requestHost: options.requestHost,
      sessionId: options.sessionId ?? toWireId(randomUUID()),
    });
    if (result.outcome === 'not_allowed') throw new WorkspaceNotAllowedError(result.reason);
    if (result.outcome === 'no_agent') {
      const problems = [...(options.refusals ?? []), ...result.refusals].map((r) => ({
        field: `agent ${r.hostname}`,
        message: r.reason,
      }));
      const reason =
        agents.length === 0 && options.refusals?.length
          ? 'No agent is online to run sessions'
          : result.reason;
      throw withFieldErrors(new NoAgentAvailableError(reason), problems);
    }
    return result.plan;
  }

  async function planIn(
    tx: Tx | undefined,
    userId: string,
    imageId: string,
    options: PlanOptions = {},
  ): Promise<LaunchPlan> {
    const inputs = await loadPlanInputs(sources, userId, imageId, tx);
    if ('missing' in inputs) {
      if (inputs.missing === 'user') throw new UserNotFoundError(`user_id ${userId}`);
      throw new ImageNotFoundError(`image_id ${imageId}`);
    }
    return resolve(inputs, tx, options);
  }

  return {
    plan: async (target: TargetUser, imageId: string, requestHost?: RequestHost) =>
      planIn(undefined, await users.idOf(target), imageId, { requestHost }),
    /** The plan inside a caller's transaction, over the agents it has locked. */
    planIn,
    /** The workspace's config fingerprint now; null when it is gone. */
    async configFingerprint(imageId: string, tx?: Tx): Promise<string | null> {
      const image = await sources.images.find(toUuid(imageId), tx);
      return image && workspaceConfigFingerprint(image);
    },
    /** A staged session's plan (no user yet: the workspace's own file mappings, no profile). */
    async planStaged(tx: Tx, imageId: string, options: PlanOptions): Promise<LaunchPlan> {
      const inputs = await loadStagingInputs(sources, imageId, tx);
      if ('missing' in inputs) throw new ImageNotFoundError(`image_id ${imageId}`);
      return resolve(inputs, tx, options);
    },
  };
}
export type LaunchPlanService = ReturnType<typeof createLaunchPlanService>;
