import { toTimestamp, toWireId } from '@platform/schemas';
import type { ZoneRow } from './zones.repository';
import type { ZoneResponse } from './zones.schemas';

/** A zone with how many agents it has. */
export type ZoneWithAgents = ZoneRow & { agentCount: number };

export function toZoneResponse(zone: ZoneWithAgents): ZoneResponse {
  return {
    zone_id: toWireId(zone.id),
    name: zone.name,
    proxy_hostname: zone.proxyHostname,
    proxy_path: zone.proxyPath,
    proxy_port: zone.proxyPort,
    agent_count: zone.agentCount,
    created: toTimestamp(zone.createdAt),
    updated: toTimestamp(zone.updatedAt),
  };
}
