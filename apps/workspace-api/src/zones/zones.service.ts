import { isUniqueViolation } from '@platform/errors';
import { toUuid } from '@platform/schemas';
import type { Db } from '../db';
import { ZoneHasAgentsError, ZoneNameTakenError, ZoneNotFoundError } from '../errors';
import type { Prisma } from '../generated/prisma/client';
import { normalizeHostname } from '../domain/names';
import { type CreateZoneInput, type UpdateZoneInput } from './zones.schemas';

const WITH_COUNT = { _count: { select: { agents: true } } } satisfies Prisma.ZoneInclude;
export type ZoneWithCount = Prisma.ZoneGetPayload<{ include: typeof WITH_COUNT }>;

const prismaCode = (error: unknown) => (error as { code?: string } | null)?.code;

export function createZonesService({ db }: { db: Db }) {
  const rethrow = (zoneId: string | null, name: string | undefined) => (error: unknown) => {
    if (isUniqueViolation(error)) throw new ZoneNameTakenError(name ?? '');
    if (zoneId && prismaCode(error) === 'P2025') throw new ZoneNotFoundError(`zone_id ${zoneId}`);
    throw error;
  };

  return {
    list: (): Promise<ZoneWithCount[]> =>
      db.zone.findMany({ include: WITH_COUNT, orderBy: { name: 'asc' } }),

    create(input: CreateZoneInput): Promise<ZoneWithCount> {
      const name = input.name.trim();
      const data = {
        name,
        proxyHostname: normalizeHostname(input.proxy_hostname),
        proxyPath: input.proxy_path,
        proxyPort: input.proxy_port,
      };
      return db.zone.create({ data, include: WITH_COUNT }).catch(rethrow(null, name));
    },

    /** Only the fields present change. */
    update(input: UpdateZoneInput): Promise<ZoneWithCount> {
      const name = input.name?.trim();
      const data = {
        name,
        proxyHostname: input.proxy_hostname && normalizeHostname(input.proxy_hostname),
        proxyPath: input.proxy_path,
        proxyPort: input.proxy_port,
      };
      return db.zone
        .update({ where: { id: toUuid(input.zone_id) }, data, include: WITH_COUNT })
        .catch(rethrow(input.zone_id, name));
    },

    /** The agents' foreign key refuses the delete while the zone has any, also against a concurrent create. */
    async remove(zoneId: string): Promise<void> {
      const { count } = await db.zone
        .deleteMany({ where: { id: toUuid(zoneId) } })
        .catch((error: unknown) => {
          throw prismaCode(error) === 'P2003' ? new ZoneHasAgentsError() : error;
        });
      if (count === 0) throw new ZoneNotFoundError(`zone_id ${zoneId}`);
    },
  };
}
export type ZonesService = ReturnType<typeof createZonesService>;
