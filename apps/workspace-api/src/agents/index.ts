// The agents feature's public face: what other features may use of it.
export { agentResources, type AgentWithZone, toAgentResponse } from './agent-response';
export {
  type AgentEngine,
  type AgentRow,
  type AgentsRepository,
  createAgentsRepository,
} from './agents.repository';
export { agentsRoutes } from './agents.routes';
export { AgentFields, EngineAgentFields } from './agents.schemas';
export { createAgentsService } from './agents.service';
export {
  agentCapacity,
  type AgentResources,
  chooseAgent,
  rankAgents,
  type Resources,
} from './capacity';
export { localAgentServices, localEngineUrl, registerLocalAgent } from './local-agent';
