import { toWireId } from '@platform/schemas';
import type { LaunchPlan } from './launch-plan';
import type { LaunchPlanResponse } from './launch-plan.schemas';

const asObject = (value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

export function toLaunchPlanResponse(plan: LaunchPlan): LaunchPlanResponse {
  return {
    user: { user_id: toWireId(plan.user.id), username: plan.user.username },
    image: {
      image_id: toWireId(plan.image.id),
      name: plan.image.name,
      friendly_name: plan.image.friendlyName,
      docker_registry: plan.image.dockerRegistry,
      registry_id: plan.image.registryId && toWireId(plan.image.registryId),
    },
    cores: plan.resources.cores,
    memory: plan.resources.memory,
    allowed_through: plan.allowedThrough.map((g) => ({ group_id: toWireId(g.id), name: g.name })),
    agent: {
      agent_id: toWireId(plan.agent.id),
      hostname: plan.agent.hostname,
      zone_id: toWireId(plan.agent.zone.id),
      zone_name: plan.agent.zone.name,
      capacity: plan.agent.capacity,
      free: plan.agent.free,
    },
    session_id: plan.sessionId,
    session_url: plan.sessionUrl,
    persistent_profile_path: plan.persistentProfilePath,
    file_mappings: plan.fileMappings.map((m) => ({
      file_mapping_id: toWireId(m.id),
      name: m.name,
      description: m.description,
      destination: m.destination,
      executable: m.executable,
      content: m.content,
      source: { type: m.source.type, id: toWireId(m.source.id), name: m.source.name },
    })),
    exec_config: asObject(plan.execConfig),
  };
}
