// The file-mappings feature's public face: what other features may use of it.
export {
  createFileMappingsRepository,
  type FileMappingsRepository,
} from './file-mappings.repository';
export { toFileMappingResponse } from './file-mapping-response';
export { fileMappingsRoutes } from './file-mappings.routes';
export {
  FILE_MAPPING_BODY_LIMIT_BYTES,
  FileMappingFields,
  MAX_CONTENT_BYTES,
} from './file-mappings.schemas';
export { createFileMappingsService } from './file-mappings.service';
export {
  contentProblem,
  type MappingTarget,
  rowTarget,
  TARGET_NOUNS,
  type TargetedMapping,
  type TargetType,
} from './mapping-target';
export { mappingTargets } from './mapping-targets';
