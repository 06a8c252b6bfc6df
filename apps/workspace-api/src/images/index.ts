// The images feature's public face: what other features may use of it.
export { decideAccess } from './access';
export {
  BYTES_PER_MB,
  CORES_MAX,
  CORES_MIN,
  MEMORY_MAX_MB,
  MEMORY_MIN_MB,
  SIZE_MAX_MB,
} from './image-limits';
export { toImageResponse } from './image-response';
export {
  createImagesRepository,
  type ImageFields,
  type ImageRow,
  type ImagesRepository,
} from './images.repository';
export { imagesRoutes } from './images.routes';
export {
  IdleActionSchema,
  IdleLimitSchema,
  ImageSchema,
  ImagesSchema,
  ProfilePathSchema,
} from './images.schemas';
export { createImagesService, type ImagesService } from './images.service';
export {
  effectivePolicy,
  type GroupTransferRights,
  NO_TRANSFERS,
  type SessionPolicy,
} from './session-policy';
export { fillProfilePath, profilePathProblems } from './profile-path';
export { profilePathRoutes } from './profile-path.routes';
export { firstFreeSettingsName } from './settings-name';
export {
  WORKSPACE_POLICY_FIELDS,
  WORKSPACE_POLICY_LIMITS,
  WORKSPACE_POLICY_SWITCHES,
  type WorkspacePolicy,
  workspacePolicySchemas,
} from './workspace-policy-fields';
