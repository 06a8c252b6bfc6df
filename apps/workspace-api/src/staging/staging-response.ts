import { toTimestamp, toWireId } from '@platform/schemas';
import type { StagingConfigResponse } from './staging.schemas';
import type { StagingConfigWithCount } from './staging.service';

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
