import { toUuid } from '@platform/schemas';
import { isForeignKeyViolation, isUniqueViolation } from '../db';
import {
  ZoneHasAgentsError,
  ZoneNameTakenError,
  ZoneNotFoundError,
  ZoneOnConsoleOriginError,
} from '../errors';
import { normalizeHostname } from '../domain';
import { type ConsoleOrigin, zoneOnConsoleOrigin } from './zone-origin';
import { ZONE_DEFAULTS, type CreateZoneInput, type UpdateZoneInput } from './zones.schemas';
import type { ZoneRow, ZonesRepository } from './zones.repository';

/** What zones need of the agents feature: how many agents each zone has. */
export interface ZoneAgents {
  countByZone(): Promise<Map<string, number>>;
}

/** A zone with how many agents it has. */
export type ZoneWithAgents = ZoneRow & { agentCount: number };

export function createZonesService({
  zones,
  agents,
  consoleOrigin,
}: {
  zones: ZonesRepository;
  /** How many agents each zone has. */
  agents: ZoneAgents;
  /** Where the console is: no zone may put its sessions there. */
  consoleOrigin: ConsoleOrigin;
}) {
  const refuseConsoleOrigin = (zone: { proxyHostname: string; proxyPort: number }) => {
    const reason = zoneOnConsoleOrigin(zone, consoleOrigin);
    if (reason) throw new ZoneOnConsoleOriginError(reason);
  };
  async function withAgents(rows: ZoneRow[]): Promise<ZoneWithAgents[]> {
    const counts = await agents.countByZone();
    return rows.map((zone) => ({ ...zone, agentCount: counts.get(zone.id) ?? 0 }));
  }
  const one = async (row: ZoneRow) => (await withAgents([row]))[0];

  const rethrow = (name: string | undefined) => (error: unknown) => {
    throw isUniqueViolation(error) ? new ZoneNameTakenError(name ?? '') : error;
  };

  return {
    list: async (): Promise<ZoneWithAgents[]> => withAgents(await zones.list()),

    async create(input: CreateZoneInput): Promise<ZoneWithAgents> {
      const name = input.name.trim();
      const fields = {
        name,
        proxyHostname: normalizeHostname(input.proxy_hostname),
        proxyPath: input.proxy_path,
        proxyPort: input.proxy_port,
      };
      refuseConsoleOrigin({
        proxyHostname: fields.proxyHostname,
        proxyPort: fields.proxyPort ?? ZONE_DEFAULTS.proxy_port,
      });
      return one(await zones.create(fields).catch(rethrow(name)));
    },

    /** Only the fields present change. */
    async update(input: UpdateZoneInput): Promise<ZoneWithAgents> {
      const name = input.name?.trim();
      const fields = {
        name,
        proxyHostname: input.proxy_hostname && normalizeHostname(input.proxy_hostname),
        proxyPath: input.proxy_path,
        proxyPort: input.proxy_port,
      };
      if (fields.proxyHostname !== undefined || fields.proxyPort !== undefined) {
        const id = toUuid(input.zone_id);
        const current = (await zones.list()).find((zone) => zone.id === id);
        if (!current) throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
        refuseConsoleOrigin({
          proxyHostname: fields.proxyHostname || current.proxyHostname,
          proxyPort: fields.proxyPort ?? current.proxyPort,
        });
      }
      const row = await zones.update(toUuid(input.zone_id), fields).catch(rethrow(name));
      if (!row) throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
      return one(row);
    },

    /** The agents' foreign key refuses the delete while the zone has any, also against a concurrent create. */
    async remove(zoneId: string): Promise<void> {
      const removed = await zones.remove(toUuid(zoneId)).catch((error: unknown) => {
        throw isForeignKeyViolation(error) ? new ZoneHasAgentsError() : error;
      });
      if (!removed) throw new ZoneNotFoundError(`zone_id ${zoneId}`);
    },
  };
}
export type ZonesService = ReturnType<typeof createZonesService>;
