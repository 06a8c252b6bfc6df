import { workspaceConfigFingerprint } from './config-fingerprint';
import { toWireId } from '@platform/schemas';
import { agentCapacity, type AgentResources, chooseAgent, type Resources } from '../agents';
import { decideAccess, fillProfilePath } from '../images';
import type { TargetedMapping } from '../file-mappings';
import { mergeFileMappings, type MergedMapping } from './merge-file-mappings';
import { REQUEST_HOST, type RequestHost } from '../domain';
import { resolveKasmUrl, sessionUrl, type ZoneProxy } from './session-url';

export interface PlanImage {
  id: string;
  name: string;
  friendlyName: string;
  enabled: boolean;
  dockerRegistry: string;
  registryId: string | null;
  cores: number;
  memory: number;
  persistentProfilePath: string;
  execConfig: unknown;
  runConfig: unknown;
  allowRootExec: boolean;
  allowPlainHttp: boolean;
}
export type PlanAgent = AgentResources & { id: string; zoneId: string };
export type PlanZone = ZoneProxy & { id: string; name: string };

export interface LaunchPlanInput {
  user: { id: string; username: string };
  /** The user's groups, each with the workspaces on its Allowed Workspaces list. */
  groups: readonly { id: string; name: string; priority: number; imageIds: readonly string[] }[];
  image: PlanImage;
  agents: readonly PlanAgent[];
  zones: readonly PlanZone[];
  mappings: readonly TargetedMapping[];
  /** Names the session in its URL; chosen by the caller so that this function stays pure. */
  sessionId: string;
  /** The scheme of session URLs (https unless the platform is served over plain HTTP). */
  urlScheme?: string;
  /** The host the request for the plan came to, for a zone whose host is `$request_host$`. */
  requestHost?: RequestHost;
}

export interface LaunchPlan {
  user: { id: string; username: string };
  image: Pick<
    PlanImage,
    | 'id'
    | 'name'
    | 'friendlyName'
    | 'dockerRegistry'
    | 'registryId'
    | 'runConfig'
    | 'allowRootExec'
    | 'allowPlainHttp'
  >;
  resources: Resources;
  allowedThrough: { id: string; name: string }[];
  agent: {
    id: string;
    hostname: string;
    zone: { id: string; name: string };
    capacity: Resources;
    free: Resources;
  };
  sessionId: string;
  /** The URL as the launching request saw it; KASM_URL in the container. */
  sessionUrl: string;
  /** Set when the zone's host is `$request_host$`: each later request gets a URL on its own host. */
  requestHostZone?: ZoneProxy & { scheme: string };
  persistentProfilePath: string | null;
  fileMappings: MergedMapping[];
  execConfig: unknown;
  /** The workspace's run and exec config and allowances as planned (config-fingerprint.ts). */
  configFingerprint: string;
}

export type LaunchPlanResult =
  | { outcome: 'planned'; plan: LaunchPlan }
  | { outcome: 'not_allowed'; reason: string }
  | { outcome: 'no_agent'; reason: string; refusals: { hostname: string; reason: string }[] };

/** What a session of this user on this workspace would get; it plans, it starts nothing. */
export function resolveLaunchPlan(input: LaunchPlanInput): LaunchPlanResult {
  const { user, image } = input;
  const granting = input.groups
    .filter((g) => g.imageIds.includes(image.id))
    .sort((a, b) => a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const access = decideAccess({ enabled: image.enabled, grantingGroups: granting });
  if (!access.allowed) return { outcome: 'not_allowed', reason: access.reason };

  const need = { cores: image.cores, memory: image.memory };
  const zones = new Map(input.zones.map((z) => [z.id, z]));
  const placeable = input.agents.filter((a) => zones.has(a.zoneId));
  const choice = chooseAgent(placeable, need);
  if (!choice.agent) {
    const reason =
      placeable.length === 0
        ? 'No agent is registered to run sessions'
        : `No agent has ${need.cores} cores and ${need.memory} bytes of memory free`;
    return { outcome: 'no_agent', reason, refusals: choice.refusals };
  }
  const { agent, free } = choice;
  const zone = zones.get(agent.zoneId) as PlanZone;
  const url = sessionUrl(zone, input.sessionId, input.urlScheme, input.requestHost);
  const { proxyHostname, proxyPath, proxyPort } = zone;
  const requestHostZone =
    proxyHostname === REQUEST_HOST
      ? { proxyHostname, proxyPath, proxyPort, scheme: input.urlScheme ?? 'https' }
      : undefined;
  const owner = { username: user.username, userId: toWireId(user.id), imageId: toWireId(image.id) };

  return {
    outcome: 'planned',
    plan: {
      user,
      image: {
        id: image.id,
        name: image.name,
        friendlyName: image.friendlyName,
        dockerRegistry: image.dockerRegistry,
        registryId: image.registryId,
        runConfig: image.runConfig,
        allowRootExec: image.allowRootExec,
        allowPlainHttp: image.allowPlainHttp,
      },
      resources: need,
      allowedThrough: granting.map((g) => ({ id: g.id, name: g.name })),
      agent: {
        id: agent.id,
        hostname: agent.hostname,
        zone: { id: zone.id, name: zone.name },
        capacity: agentCapacity(agent),
        free,
      },
      sessionId: input.sessionId,
      sessionUrl: url,
      ...(requestHostZone ? { requestHostZone } : {}),
      persistentProfilePath: fillProfilePath(image.persistentProfilePath, owner),
      fileMappings: mergeFileMappings({
        image,
        groups: input.groups,
        user,
        mappings: input.mappings,
      }),
      execConfig: resolveKasmUrl(image.execConfig, url),
      configFingerprint: workspaceConfigFingerprint(image),
    },
  };
}

/** The session's URL for a request that came to `requestHost` (only `$request_host$` zones differ). */
export function sessionUrlFor(plan: LaunchPlan, requestHost: RequestHost): string {
  const zone = plan.requestHostZone;
  if (!zone) return plan.sessionUrl;
  return sessionUrl(zone, plan.sessionId, zone.scheme, requestHost);
}
