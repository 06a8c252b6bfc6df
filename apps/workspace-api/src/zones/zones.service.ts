import { toUuid } from '@platform/schemas';
import {
  isForeignKeyViolation,
  isUniqueViolation,
  recordedChange,
  recordedRemoval,
  type AuditRecorder,
  type Tx,
} from '../db';
import {
  ZoneHasAgentsError,
  ZoneNameTakenError,
  ZoneNotFoundError,
  ZoneOnConsoleOriginError,
} from '../errors';
import { normalizeHostname } from '../domain';
import { type ConsoleOrigin, zoneOnConsoleOrigin } from './zone-origin';
import { toZoneResponse, type ZoneWithAgents } from './zone-response';
import { ZONE_DEFAULTS, type CreateZoneInput, type UpdateZoneInput } from './zones.schemas';
import type { ZoneRow, ZonesRepository } from './zones.repository';

export type { ZoneWithAgents } from './zone-response';

/** What zones need of the agents feature: how many agents each zone has (in `tx` when given). */
export interface ZoneAgents {
  countByZone(tx?: Tx): Promise<Map<string, number>>;
}

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
  async function withAgents(rows: ZoneRow[], tx?: Tx): Promise<ZoneWithAgents[]> {
    const counts = await agents.countByZone(tx);
    return rows.map((zone) => ({ ...zone, agentCount: counts.get(zone.id) ?? 0 }));
  }
  const one = async (row: ZoneRow, tx: Tx) => (await withAgents([row], tx))[0];
  /** The zone as get_zones answers it, its agents counted in `tx`: its audit snapshot. */
  const snapshot = (id: string) => async (tx: Tx) => {
    const zone = await zones.find(id, tx);
    return zone && toZoneResponse(await one(zone, tx));
  };
  const answered = (_tx: Tx, zone: ZoneWithAgents) => toZoneResponse(zone);
  const notFound = (zoneId: string) => new ZoneNotFoundError(`zone_id ${zoneId}`);

  const rethrow = (name: string | undefined) => (error: unknown) => {
    throw isUniqueViolation(error) ? new ZoneNameTakenError(name ?? '') : error;
  };

  return {
    list: async (): Promise<ZoneWithAgents[]> => withAgents(await zones.list()),

    /** With `audit` (here and below), the API's event is written in the change's transaction. */
    async create(input: CreateZoneInput, audit?: AuditRecorder | null): Promise<ZoneWithAgents> {
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
      return recordedChange(zones.transaction, audit, {
        change: async (tx) => one(await zones.create(fields, tx), tx),
        after: answered,
      }).catch(rethrow(name));
    },

    /** Only the fields present change. */
    async update(input: UpdateZoneInput, audit?: AuditRecorder | null): Promise<ZoneWithAgents> {
      const name = input.name?.trim();
      const id = toUuid(input.zone_id);
      const fields = {
        name,
        proxyHostname: input.proxy_hostname && normalizeHostname(input.proxy_hostname),
        proxyPath: input.proxy_path,
        proxyPort: input.proxy_port,
      };
      return recordedChange(zones.transaction, audit, {
        before: snapshot(id),
        change: async (tx) => {
          if (fields.proxyHostname !== undefined || fields.proxyPort !== undefined) {
            const current = await zones.find(id, tx);
            if (!current) throw notFound(input.zone_id);
            refuseConsoleOrigin({
              proxyHostname: fields.proxyHostname || current.proxyHostname,
              proxyPort: fields.proxyPort ?? current.proxyPort,
            });
          }
          const row = await zones.update(id, fields, tx);
          if (!row) throw notFound(input.zone_id);
          return one(row, tx);
        },
        after: answered,
      }).catch(rethrow(name));
    },

    /** The agents' foreign key refuses the delete while the zone has any, also against a concurrent create. */
    async remove(zoneId: string, audit?: AuditRecorder | null): Promise<void> {
      const id = toUuid(zoneId);
      await recordedRemoval(
        zones.transaction,
        audit,
        snapshot(id),
        (tx) => zones.remove(id, tx),
        () => notFound(zoneId),
      ).catch((error: unknown) => {
        throw isForeignKeyViolation(error) ? new ZoneHasAgentsError() : error;
      });
    },
  };
}
export type ZonesService = ReturnType<typeof createZonesService>;
