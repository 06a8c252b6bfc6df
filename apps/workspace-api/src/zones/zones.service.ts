import { toUuid } from '@platform/schemas';
import { isForeignKeyViolation, isUniqueViolation } from '../db';
import { ZoneHasAgentsError, ZoneNameTakenError, ZoneNotFoundError } from '../errors';
import { normalizeHostname } from '../domain';
import { type CreateZoneInput, type UpdateZoneInput } from './zones.schemas';
import type { ZoneRow, ZonesRepository } from './zones.repository';

export function createZonesService({ zones }: { zones: ZonesRepository }) {
  const rethrow = (name: string | undefined) => (error: unknown) => {
    throw isUniqueViolation(error) ? new ZoneNameTakenError(name ?? '') : error;
  };

  return {
    list: (): Promise<ZoneRow[]> => zones.list(),

    create(input: CreateZoneInput): Promise<ZoneRow> {
      const name = input.name.trim();
      const fields = {
        name,
        proxyHostname: normalizeHostname(input.proxy_hostname),
        proxyPath: input.proxy_path,
        proxyPort: input.proxy_port,
      };
      return zones.create(fields).catch(rethrow(name));
    },

    /** Only the fields present change. */
    async update(input: UpdateZoneInput): Promise<ZoneRow> {
      const name = input.name?.trim();
      const fields = {
        name,
        proxyHostname: input.proxy_hostname && normalizeHostname(input.proxy_hostname),
        proxyPath: input.proxy_path,
        proxyPort: input.proxy_port,
      };
      const row = await zones.update(toUuid(input.zone_id), fields).catch(rethrow(name));
      if (!row) throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
      return row;
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
