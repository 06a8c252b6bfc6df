import { toUuid } from '@platform/schemas';
import { isForeignKeyViolation, isUniqueViolation } from '../db';
import {
  ImageNotFoundError,
  StagingConfigNotFoundError,
  StagingConfigTakenError,
  StagingNotPossibleError,
  ZoneNotFoundError,
} from '../errors';
import type { ImagesRepository } from '../images';
import type { StagedPools } from '../sessions';
import type { ZonesRepository } from '../zones';
import type { StagingConfigRow, StagingRepository } from './staging.repository';
import type { CreateStagingConfigInput, UpdateStagingConfigInput } from './staging.schemas';

/** A staging config with how many of its sessions wait for a user now, and how many are starting. */
export type StagingConfigWithCount = StagingConfigRow & { numStaged: number; numStarting: number };

export function createStagingService({
  configs,
  images,
  zones,
  pools,
}: {
  configs: StagingRepository;
  images: Pick<ImagesRepository, 'find'>;
  zones: Pick<ZonesRepository, 'namesOf'>;
  pools: Pick<StagedPools, 'stagedCounts'>;
}) {
  async function withCounts(rows: StagingConfigRow[]): Promise<StagingConfigWithCount[]> {
    const counts = await pools.stagedCounts();
    return rows.map((row) => {
      const count = counts.get(row.id);
      return { ...row, numStaged: count?.running ?? 0, numStarting: count?.starting ?? 0 };
    });
  }

  return {
    list: async () => withCounts(await configs.list()),

    /** Refuses a workspace with a persistent profile: a session started for nobody has none. */
    async create(input: CreateStagingConfigInput): Promise<StagingConfigWithCount> {
      const [image, zoneNames] = await Promise.all([
        images.find(toUuid(input.image_id)),
        zones.namesOf([toUuid(input.zone_id)]),
      ]);
      if (!image) throw new ImageNotFoundError(`image_id ${input.image_id}`);
      if (zoneNames.size === 0) throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
      if (image.persistentProfilePath !== '') {
        throw new StagingNotPossibleError(
          'The workspace keeps a persistent profile per user (persistent_profile_path): a staged session, started before its user is known, cannot mount it',
        );
      }
      const row = await configs
        .create({
          zoneId: toUuid(input.zone_id),
          imageId: image.id,
          numSessions: input.num_sessions,
          expirationHours: input.expiration,
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new StagingConfigTakenError();
          // The zone or workspace was deleted since it was read.
          if (isForeignKeyViolation(error)) throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
          throw error;
        });
      return (await withCounts([row]))[0];
    },

    /** Only the fields present change; a lower number retires the surplus in the next round. */
    async update(input: UpdateStagingConfigInput): Promise<StagingConfigWithCount> {
      const row = await configs.update(toUuid(input.staging_config_id), {
        numSessions: input.num_sessions,
        expirationHours: input.expiration,
      });
      if (!row)
        throw new StagingConfigNotFoundError(`staging_config_id ${input.staging_config_id}`);
      return (await withCounts([row]))[0];
    },

    /** Its unassigned sessions are retired by the next round; sessions users took stay theirs. */
    async remove(id: string): Promise<void> {
      if (!(await configs.remove(toUuid(id))))
        throw new StagingConfigNotFoundError(`staging_config_id ${id}`);
    },
  };
}
export type StagingService = ReturnType<typeof createStagingService>;
