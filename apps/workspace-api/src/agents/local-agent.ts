import { toWireId } from '@platform/schemas';
import type { Database } from '../db';
import { EngineError, type EnginePolicy, type Engines } from '../engines';
import { type RecordChange, REQUEST_HOST } from '../domain';
import {
  type ConsoleOrigin,
  createZonesRepository,
  createZonesService,
  toZoneResponse,
  type ZonesService,
} from '../zones';
import { toAgentResponse } from './agent-response';
import { createAgentsRepository } from './agents.repository';
import { createAgentsService, type AgentsService } from './agents.service';

export const LOCAL_AGENT = 'local';
const DEFAULT_SOCKET = 'unix:///var/run/docker.sock';

/** The engine a local start would use: DOCKER_HOST when it names a socket or TCP address, else the default socket. */
export function localEngineUrl(dockerHost: string | undefined): string {
  return dockerHost && /^(unix|tcp):\/\//.test(dockerHost) ? dockerHost : DEFAULT_SOCKET;
}

/** The zones and agents services as setup uses them, with no server running: no sessions reserve anything. */
export function localAgentServices(
  database: Database,
  engines: Engines,
  policy: EnginePolicy,
  consoleOrigin: ConsoleOrigin,
) {
  const rows = { zones: createZonesRepository(database), agents: createAgentsRepository(database) };
  return {
    zones: createZonesService({ ...rows, consoleOrigin }),
    agents: createAgentsService({
      ...rows,
      engines,
      policy,
      reservations: async () => new Map(),
      // Setup never removes an agent.
      hasSessions: async () => false,
    }),
  };
}

/**
 * The zone "local": sessions on the host each person's page is on, so the page works from
 * 127.0.0.1, localhost or the machine's address alike, at the sessions listener's port: another
 * origin than the console's. A zone still holding one of setup's earlier defaults (localhost
 * and the service's port; the page's own host and port) moves to this one; any other setting
 * is the administrator's and stays.
 */
async function localZone(
  zones: ZonesService,
  port: number,
  sessionPort: number,
  record: RecordChange,
) {
  const existing = (await zones.list()).find((z) => z.name === LOCAL_AGENT);
  const fields = { proxy_hostname: REQUEST_HOST, proxy_port: sessionPort };
  const was = (hostname: string, proxyPort: number) =>
    existing?.proxyHostname === hostname &&
    existing.proxyPort === proxyPort &&
    existing.proxyPath === '/';
  const oldDefault = was('localhost', port) || was(REQUEST_HOST, 0);
  if (existing && !oldDefault) return existing;
  const zone = existing
    ? await zones.update({ zone_id: toWireId(existing.id), ...fields })
    : await zones.create({ name: LOCAL_AGENT, ...fields });
  await record({
    operation: existing ? 'update_zone' : 'create_zone',
    target: { type: 'zone', id: toWireId(zone.id) },
    before: existing ? toZoneResponse(existing) : null,
    after: toZoneResponse(zone),
  });
  return zone;
}

export type LocalAgentResult =
  | { registered: true; url: string; cores: number; memory: number; created: boolean }
  | { registered: false; url: string; reason: string };

/**
 * Registers (or points at) the agent "local" in the zone "local" when a Docker engine answers
 * here, so that `npm start` runs sessions with no setup; says why not otherwise.
 */
export async function registerLocalAgent(deps: {
  engines: Engines;
  zones: ZonesService;
  agents: AgentsService;
  dockerHost: string | undefined;
  port: number;
  record: RecordChange;
  /** SESSION_PORT: where the zone's sessions are served. */
  sessionPort: number;
}): Promise<LocalAgentResult> {
  const url = localEngineUrl(deps.dockerHost);
  const address = { dockerUrl: url, tlsCaPath: '', tlsCertPath: '', tlsKeyPath: '' };
  try {
    await deps.engines.forAgent(address).info();
  } catch (error) {
    // The operator's own terminal: the engine's words help here, unlike on anyone's page.
    const reason =
      error instanceof EngineError && error.detail
        ? `${error.message}: ${error.detail}`
        : error instanceof Error
          ? error.message
          : String(error);
    return { registered: false, url, reason };
  }
  const zone = await localZone(deps.zones, deps.port, deps.sessionPort, deps.record);
  const existing = (await deps.agents.list()).find((a) => a.hostname === LOCAL_AGENT);
  const agent = existing
    ? await deps.agents.update({ agent_id: toWireId(existing.id), docker_url: url })
    : await deps.agents.create({
        hostname: LOCAL_AGENT,
        zone_id: toWireId(zone.id),
        docker_url: url,
      });
  await deps.record({
    operation: existing ? 'update_agent' : 'create_agent',
    target: { type: 'agent', id: toWireId(agent.id) },
    before: existing ? toAgentResponse(existing) : null,
    after: toAgentResponse(agent),
  });
  return {
    registered: true,
    url,
    cores: agent.cores,
    memory: Number(agent.memory),
    created: !existing,
  };
}
