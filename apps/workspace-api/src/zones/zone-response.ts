import { toTimestamp, toWireId } from '@platform/schemas';
import type { ZoneResponse } from './zones.schemas';
import type { ZoneRow } from './zones.repository';

export function toZoneResponse(zone: ZoneRow): ZoneResponse {
  return {
    zone_id: toWireId(zone.id),
    name: zone.name,
    proxy_hostname: zone.proxyHostname,
    proxy_path: zone.proxyPath,
    proxy_port: zone.proxyPort,
    agent_count: zone._count.agents,
    created: toTimestamp(zone.createdAt),
    updated: toTimestamp(zone.updatedAt),
  };
}
