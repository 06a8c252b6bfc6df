import { toTimestamp, toWireId } from '@platform/schemas';
import type { StagingConfigRow } from './staging.repository';
import type { StagingConfigResponse } from './staging.schemas';

/** A staging config with how many of its sessions wait for a user now, and how many are starting. */
export type StagingConfigWithCount = StagingConfigRow & { numStaged: number; numStarting: number };

export function toStagingConfigResponse(row: StagingConfigWithCount): StagingConfigResponse {
  return {
    staging_config_id: toWireId(row.id),
    zone_id: toWireId(row.zoneId),
    image_id: toWireId(row.imageId),
    num_sessions: row.numSessions,
    expiration: row.expirationHours,
    num_staged: row.numStaged,
    num_starting: row.numStarting,
    created: toTimestamp(row.createdAt),
    updated: toTimestamp(row.updatedAt),
  };
}
