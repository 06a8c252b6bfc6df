import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import { toAgentResponse } from './agent-response';
import {
  AgentEnvelopeSchema,
  AgentsSchema,
  CreateAgentBodySchema,
  TargetAgentBodySchema,
  UpdateAgentBodySchema,
} from './agents.schemas';
import type { AgentsService } from './agents.service';

const tags = ['settings'];
const security = API_KEY_SECURITY;

export const agentsRoutes: FastifyPluginAsyncTypebox<{ agents: AgentsService }> = async (
  app,
  { agents },
) => {
  app.post(
    '/create_agent',
    {
      config: { permission: 'settings.modify', audit: 'agent', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Register an agent: hostname, zone, detected cores and memory, optional overrides',
        body: CreateAgentBodySchema,
        response: { 200: AgentEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      agent: toAgentResponse(await agents.create(request.body.target_agent, request.audit)),
    }),
  );

  app.post(
    '/get_agents',
    {
      config: { permission: 'settings.view' },
      schema: {
        tags,
        security,
        summary: 'List agents by hostname, with capacity, allocation and free resources',
        response: { 200: AgentsSchema, ...errorResponses() },
      },
    },
    async () => ({ agents: (await agents.list()).map(toAgentResponse) }),
  );

  app.post(
    '/update_agent',
    {
      config: { permission: 'settings.modify', audit: 'agent', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          "Change an agent's zone, resources, overrides or allocation; only the fields present change",
        body: UpdateAgentBodySchema,
        response: { 200: AgentEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      agent: toAgentResponse(await agents.update(request.body.target_agent, request.audit)),
    }),
  );

  app.post(
    '/delete_agent',
    {
      config: { permission: 'settings.modify', audit: 'agent', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Remove an agent',
        body: TargetAgentBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await agents.remove(request.body.target_agent.agent_id, request.audit);
      return {};
    },
  );
};
