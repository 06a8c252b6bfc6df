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
  ImageNotFoundError,
  StagingConfigNotFoundError,
  StagingConfigTakenError,
  StagingNotPossibleError,
  ZoneNotFoundError,
} from '../errors';
import type { ImagesRepository } from '../images';
import type { StagedPools } from '../sessions';
import type { ZonesRepository } from '../zones';
import { toStagingConfigResponse, type StagingConfigWithCount } from './staging-response';
import type { StagingConfigRow, StagingRepository } from './staging.repository';
import type { CreateStagingConfigInput, UpdateStagingConfigInput } from './staging.schemas';

export type { StagingConfigWithCount } from './staging-response';

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
  async function withCounts(rows: StagingConfigRow[], tx?: Tx): Promise<StagingConfigWithCount[]> {
    const counts = await pools.stagedCounts(tx);
    return rows.map((row) => {
      const count = counts.get(row.id);
      return { ...row, numStaged: count?.running ?? 0, numStarting: count?.starting ?? 0 };
    });
  }
  const one = async (row: StagingConfigRow, tx: Tx) => (await withCounts([row], tx))[0];
  /** The config as get_staging_configs answers it, read in `tx`: its audit snapshot. */
  const snapshot = (id: string) => async (tx: Tx) => {
    const config = await configs.find(id, tx);
    return config && toStagingConfigResponse(await one(config, tx));
  };
  const answered = (_tx: Tx, config: StagingConfigWithCount) => toStagingConfigResponse(config);
  const notFound = (id: string) => new StagingConfigNotFoundError(`staging_config_id ${id}`);

  return {
    list: async () => withCounts(await configs.list()),

    /**
     * Refuses a workspace with a persistent profile: a session started for nobody has none. With
     * `audit` (here and below), the API's event is written in the change's transaction.
     */
    async create(
      input: CreateStagingConfigInput,
      audit?: AuditRecorder | null,
    ): Promise<StagingConfigWithCount> {
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
      const fields = {
        zoneId: toUuid(input.zone_id),
        imageId: image.id,
        numSessions: input.num_sessions,
        expirationHours: input.expiration,
      };
      return recordedChange(configs.transaction, audit, {
        change: async (tx) => one(await configs.create(fields, tx), tx),
        after: answered,
      }).catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new StagingConfigTakenError();
        // The zone or workspace was deleted since it was read.
        if (isForeignKeyViolation(error)) throw new ZoneNotFoundError(`zone_id ${input.zone_id}`);
        throw error;
      });
    },

    /** Only the fields present change; a lower number retires the surplus in the next round. */
    async update(
      input: UpdateStagingConfigInput,
      audit?: AuditRecorder | null,
    ): Promise<StagingConfigWithCount> {
      const id = toUuid(input.staging_config_id);
      const fields = { numSessions: input.num_sessions, expirationHours: input.expiration };
      return recordedChange(configs.transaction, audit, {
        before: snapshot(id),
        change: async (tx) => {
          const row = await configs.update(id, fields, tx);
          if (!row) throw notFound(input.staging_config_id);
          return one(row, tx);
        },
        after: answered,
      });
    },

    /** Its unassigned sessions are retired by the next round; sessions users took stay theirs. */
    async remove(configId: string, audit?: AuditRecorder | null): Promise<void> {
      const id = toUuid(configId);
      await recordedRemoval(
        configs.transaction,
        audit,
        snapshot(id),
        (tx) => configs.remove(id, tx),
        () => notFound(configId),
      );
    },
  };
}
export type StagingService = ReturnType<typeof createStagingService>;
