import { Type, type Static } from '@sinclair/typebox';
import { IdSchema } from '@platform/schemas';
import { TargetUserSchema } from '../api';

const ResourcesSchema = Type.Object({
  cores: Type.Number(),
  memory: Type.Integer({ description: 'Bytes' }),
});

export const LaunchPlanBodySchema = Type.Object({
  target_user: TargetUserSchema,
  target_image: Type.Object({ image_id: IdSchema }),
});

export const LaunchPlanSchema = Type.Object({
  user: Type.Object({ user_id: Type.String(), username: Type.String() }),
  image: Type.Object({
    image_id: Type.String(),
    name: Type.String({ description: 'Container image, <repository>:<tag>' }),
    friendly_name: Type.String(),
    docker_registry: Type.String(),
    registry_id: Type.Union([Type.String(), Type.Null()]),
  }),
  cores: Type.Number(),
  memory: Type.Integer({ description: 'Bytes' }),
  allowed_through: Type.Array(Type.Object({ group_id: Type.String(), name: Type.String() })),
  agent: Type.Object({
    agent_id: Type.String(),
    hostname: Type.String(),
    zone_id: Type.String(),
    zone_name: Type.String(),
    capacity: ResourcesSchema,
    free: { ...ResourcesSchema, description: 'Before this session' },
  }),
  session_id: Type.String(),
  session_url: Type.String({
    description: 'https://proxy_hostname[:proxy_port]/proxy_path/kasm/<session_id>/',
  }),
  persistent_profile_path: Type.Union([Type.String(), Type.Null()], {
    description: 'Placeholders filled; null when the workspace keeps no profile',
  }),
  file_mappings: Type.Array(
    Type.Object({
      file_mapping_id: Type.String(),
      name: Type.String(),
      description: Type.String(),
      destination: Type.String(),
      executable: Type.Boolean(),
      content: Type.String(),
      source: Type.Object({
        type: Type.Union([Type.Literal('image'), Type.Literal('group'), Type.Literal('user')]),
        id: Type.String(),
        name: Type.String(),
      }),
    }),
    {
      description: 'Workspace, then groups by priority, then user; the first per destination wins',
    },
  ),
  exec_config: Type.Object(
    {},
    { additionalProperties: true, description: '$KASM_URL replaced by session_url' },
  ),
});
export type LaunchPlanResponse = Static<typeof LaunchPlanSchema>;
export const LaunchPlanEnvelopeSchema = Type.Object({ launch_plan: LaunchPlanSchema });
