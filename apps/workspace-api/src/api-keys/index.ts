// The api-keys feature's public face: what other features may use of it.
export type { ApiKeyCache } from './api-key-cache';
export { serverKeyCaching } from './api-key-caching';
export { createApiKeyFence } from './api-key-fence';
export { type ApiKeyRow, createApiKeysRepository } from './api-keys.repository';
export { apiKeysRoutes } from './api-keys.routes';
export { toApiKeyResponse } from './api-keys.schemas';
export { type ApiKeysService, createApiKeysService, type IssuedApiKey } from './api-keys.service';
export { takeCredentials } from './credentials';
export { assertHoldsAll } from './grantor-rule';
export { PermissionSchema } from './api-keys.schemas';
export {
  denialReason,
  holds,
  holdsAll,
  isViewPermission,
  type KeyGrant,
  type Permission,
  PERMISSIONS,
  permissionsLacking,
} from './permissions';
