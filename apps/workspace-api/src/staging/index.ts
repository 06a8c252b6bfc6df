// The staging feature's public face: staging configs and the round that keeps their sessions.
export { createStagingRound } from './staging-round';
export { createStagingRepository, type StagingRepository } from './staging.repository';
export { toStagingConfigResponse } from './staging-response';
export { stagingRoutes } from './staging.routes';
export { StagingFields } from './staging.schemas';
export { createStagingService, type StagingService } from './staging.service';
