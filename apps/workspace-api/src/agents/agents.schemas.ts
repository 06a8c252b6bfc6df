import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import { HostnameSchema } from '../zones';

/** The rules of each agent setting, shared by the operations and the settings file. */
export const AgentFields = {
  hostname: { ...HostnameSchema, description: 'Unique; stored lower-cased' },
  cores: Type.Integer({ minimum: 1, maximum: 65535, description: 'Cores the agent detected' }),
  memory: Type.Integer({
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'Memory the agent detected, in bytes',
  }),
  cores_override: Type.Integer({
    minimum: 0,
    maximum: 65535,
    description: 'Cores to offer instead; 0 = the detected cores',
  }),
  memory_override: Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'Bytes to offer instead; 0 = the detected memory',
  }),
  docker_url: Type.String({
    maxLength: 2048,
    pattern: '^$|^unix:///[^\\s]*$|^tcp://[A-Za-z0-9.-]+(:[0-9]{1,5})?/?$',
    description: 'The Docker engine: unix:///var/run/docker.sock or tcp://host:2376; "" for none',
  }),
  tls_path: Type.String({
    maxLength: 1024,
    pattern: '^$|^/[^\\s]*$',
    description: 'An absolute path readable by the service (PEM)',
  }),
};

/** An agent's engine and, without one, the resources it plans with: one shape for the API and the settings file. */
export const EngineAgentFields = {
  docker_url: Type.Optional(AgentFields.docker_url),
  tls_ca_path: Type.Optional(AgentFields.tls_path),
  tls_cert_path: Type.Optional(AgentFields.tls_path),
  tls_key_path: Type.Optional(AgentFields.tls_path),
  cores: Type.Optional({
    ...AgentFields.cores,
    description: 'Required without docker_url; else detected',
  }),
  memory: Type.Optional({
    ...AgentFields.memory,
    description: 'Required without docker_url; else detected',
  }),
};

const ResourcesSchema = Type.Object({
  cores: Type.Number(),
  memory: Type.Integer({ description: 'Bytes' }),
});

export const AgentSchema = Type.Object({
  agent_id: Type.String(),
  hostname: Type.String(),
  zone_id: Type.String(),
  zone_name: Type.String(),
  docker_url: Type.String(),
  status: Type.String({ description: 'online, offline or unknown (not checked yet)' }),
  status_reason: Type.String({ description: 'Why the agent is offline' }),
  last_heartbeat: TimestampSchema,
  cores: Type.Integer(),
  memory: Type.Integer(),
  cores_override: Type.Integer(),
  memory_override: Type.Integer(),
  capacity: {
    ...ResourcesSchema,
    description: 'The override where non-zero, else the detected value',
  },
  allocated: {
    ...ResourcesSchema,
    description: 'Held back through update_agent, plus what live sessions reserve',
  },
  free: { ...ResourcesSchema, description: 'capacity - allocated, at least 0' },
  created: TimestampSchema,
  updated: TimestampSchema,
});
export type AgentResponse = Static<typeof AgentSchema>;
export const AgentEnvelopeSchema = Type.Object({ agent: AgentSchema });
export const AgentsSchema = Type.Object({ agents: Type.Array(AgentSchema) });

export const CreateAgentBodySchema = Type.Object({
  target_agent: Type.Object({
    hostname: AgentFields.hostname,
    zone_id: IdSchema,
    ...EngineAgentFields,
    cores_override: Type.Optional(AgentFields.cores_override),
    memory_override: Type.Optional(AgentFields.memory_override),
  }),
});
export type CreateAgentInput = Static<typeof CreateAgentBodySchema>['target_agent'];

export const UpdateAgentBodySchema = Type.Object({
  target_agent: Type.Object({
    agent_id: IdSchema,
    hostname: Type.Optional(AgentFields.hostname),
    zone_id: Type.Optional(IdSchema),
    docker_url: Type.Optional(AgentFields.docker_url),
    tls_ca_path: Type.Optional(AgentFields.tls_path),
    tls_cert_path: Type.Optional(AgentFields.tls_path),
    tls_key_path: Type.Optional(AgentFields.tls_path),
    cores: Type.Optional(AgentFields.cores),
    memory: Type.Optional(AgentFields.memory),
    cores_override: Type.Optional(AgentFields.cores_override),
    memory_override: Type.Optional(AgentFields.memory_override),
    allocated_cores: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 65535,
        description: 'Cores held back for work outside the platform',
      }),
    ),
    allocated_memory: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'Bytes held back for work outside the platform',
      }),
    ),
  }),
});
export type UpdateAgentInput = Static<typeof UpdateAgentBodySchema>['target_agent'];

export const TargetAgentBodySchema = Type.Object({
  target_agent: Type.Object({ agent_id: IdSchema }),
});
