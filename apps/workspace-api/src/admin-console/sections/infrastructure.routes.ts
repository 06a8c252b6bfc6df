import { type TProperties, Type } from '@sinclair/typebox';
import { IdSchema, toWireId } from '@platform/schemas';
import { AgentFields, type createAgentsService } from '../../agents';
import { type ZonesService, ZoneFields } from '../../zones';
import { AgentNotFoundError } from '../../errors';
import { sendPage } from '../../web';
import { type AdminSection, personOf } from '../admin-context';
import { MIB, numberIn } from './form-numbers';
import { DoneQuery, noticeOf } from './section-forms';
import { agentPage, infrastructurePage } from './infrastructure.views';

const NOTICES = {
  'agent-added': 'The agent was added.',
  'agent-saved': 'The agent was saved.',
  'zone-added': 'The zone was added.',
  'zone-saved': 'The zone was saved.',
};

const Form = <T extends TProperties>(fields: T) =>
  Type.Object(fields, { additionalProperties: true });
const Blank = (schema: object) => Type.Optional(Type.Union([Type.Literal(''), schema as never]));
const AgentParams = Type.Object({ agentId: IdSchema });
const ZoneParams = Type.Object({ zoneId: IdSchema });

// The rules of create_agent and create_zone's fields, from their features.
const EngineForm = Form({
  hostname: AgentFields.hostname,
  zone_id: IdSchema,
  docker_url: { ...AgentFields.docker_url, minLength: 1 },
  tls_ca_path: Blank(AgentFields.tls_path),
  tls_cert_path: Blank(AgentFields.tls_path),
  tls_key_path: Blank(AgentFields.tls_path),
});
const OverridesForm = Form({
  cores_override: Type.String({ maxLength: 6 }),
  memory_override_mib: Type.String({ maxLength: 12 }),
});
const ZoneForm = Form({
  name: ZoneFields.name,
  proxy_hostname: ZoneFields.proxy_hostname,
  proxy_port: Type.String({ maxLength: 5 }),
  proxy_path: ZoneFields.proxy_path,
});
type ZoneFormBody = typeof ZoneForm.static;

const zoneInput = (body: ZoneFormBody) => ({
  name: body.name,
  proxy_hostname: body.proxy_hostname,
  proxy_path: body.proxy_path,
  proxy_port: numberIn(body.proxy_port, 'proxy_port', { min: 0, max: 65535, whole: true }),
});
const orNone = (value: string | undefined) => value || undefined;

export interface InfrastructureSectionDeps {
  agents: ReturnType<typeof createAgentsService>;
  zones: ZonesService;
}

/**
 * Infrastructure: agents with their engine, status and its reason, detected and overridden cores
 * and memory and what is in use; adding an engine; zones with their proxy host, port and path.
 */
export function infrastructureSection({ agents, zones }: InfrastructureSectionDeps): AdminSection {
  const agentUrl = (agentId: string, done: string) =>
    `/admin/infrastructure/agents/${toWireId(agentId)}?done=${done}`;
  return {
    id: 'infrastructure',
    title: 'Infrastructure',
    viewPermission: 'settings.view',
    routes: async (app) => {
      app.get('/', { schema: { hide: true, querystring: DoneQuery } }, async (request, reply) => {
        const [agentRows, zoneRows] = await Promise.all([agents.list(), zones.list()]);
        const notice = noticeOf(NOTICES, request.query.done);
        return sendPage(reply, infrastructurePage(personOf(request), agentRows, zoneRows, notice));
      });

      app.get(
        '/agents/:agentId',
        { schema: { hide: true, params: AgentParams, querystring: DoneQuery } },
        async (request, reply) => {
          const wanted = request.params.agentId;
          const agent = (await agents.list()).find((a) => toWireId(a.id) === wanted);
          if (!agent) throw new AgentNotFoundError(`agent_id ${wanted}`);
          const notice = noticeOf(NOTICES, request.query.done);
          return sendPage(reply, agentPage(personOf(request), agent, notice));
        },
      );

      app.post(
        '/agents/create',
        {
          config: { permission: 'settings.modify', audit: 'agent', operation: 'create_agent' },
          schema: { hide: true, body: EngineForm },
        },
        async (request, reply) => {
          const { body } = request;
          const agent = await agents.create({
            hostname: body.hostname,
            zone_id: body.zone_id,
            docker_url: body.docker_url,
            tls_ca_path: orNone(body.tls_ca_path),
            tls_cert_path: orNone(body.tls_cert_path),
            tls_key_path: orNone(body.tls_key_path),
          });
          return reply.redirect(agentUrl(agent.id, 'agent-added'), 303);
        },
      );

      app.post(
        '/agents/:agentId',
        {
          config: { permission: 'settings.modify', audit: 'agent', operation: 'update_agent' },
          schema: { hide: true, params: AgentParams, body: OverridesForm },
        },
        async (request, reply) => {
          const { body } = request;
          const max = AgentFields.memory_override.maximum as number;
          const agent = await agents.update({
            agent_id: request.params.agentId,
            cores_override: numberIn(body.cores_override, 'cores_override', {
              min: 0,
              max: AgentFields.cores_override.maximum as number,
              whole: true,
            }),
            memory_override:
              numberIn(body.memory_override_mib, 'memory_override_mib', {
                min: 0,
                max: Math.floor(max / MIB),
                whole: true,
              }) * MIB,
          });
          return reply.redirect(agentUrl(agent.id, 'agent-saved'), 303);
        },
      );

      app.post(
        '/zones/create',
        {
          config: { permission: 'settings.modify', audit: 'zone', operation: 'create_zone' },
          schema: { hide: true, body: ZoneForm },
        },
        async (request, reply) => {
          await zones.create(zoneInput(request.body));
          return reply.redirect('/admin/infrastructure?done=zone-added#zones', 303);
        },
      );

      app.post(
        '/zones/:zoneId',
        {
          config: { permission: 'settings.modify', audit: 'zone', operation: 'update_zone' },
          schema: { hide: true, params: ZoneParams, body: ZoneForm },
        },
        async (request, reply) => {
          await zones.update({ zone_id: request.params.zoneId, ...zoneInput(request.body) });
          return reply.redirect('/admin/infrastructure?done=zone-saved#zones', 303);
        },
      );
    },
  };
}
