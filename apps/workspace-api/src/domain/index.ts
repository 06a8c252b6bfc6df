// The pure rules several features share: what they may use of them.
export { createExpiringCache } from './expiring-cache';
export { normalizeHostname, normalizeUsername } from './names';
export {
  type CheckAdmission,
  comparePassword,
  hashPassword,
  passwordQueue,
  setPasswordWorkerNice,
} from './password-hashing';
export {
  cookieOptions,
  formCookieName,
  PLATFORM_COOKIES,
  publicProtocol,
  sessionCookieName,
  ssoCookieName,
} from './platform-cookies';
export { parseRequestHost, REQUEST_HOST, type RequestHost, requestHostOf } from './request-host';
export { type KasmStatus, LIVE_STATUSES, RESERVING_STATUSES } from './session-statuses';
export { ADMINISTRATORS_GROUP_ID, ALL_USERS_GROUP_ID } from './system-groups';
export {
  allowlistConfig,
  applyAllowances,
  type ConfigAllowances,
  type ConfigNote,
  effectiveConfig,
  isRootUser,
  NO_ALLOWANCES,
  REASONS,
  type WorkspaceConfig,
} from './workspace-config';
export {
  SOCKET_HOP_LABEL,
  SOCKET_HOP_MOUNT,
  socketFolderOf,
  socketPathIn,
  socketsDirProblem,
} from './socket-hop-paths';
export {
  fingerprintOf,
  issueSessionCertificate,
  peerFingerprint,
  type SessionCertificate,
} from './session-certificate';
export type { AuditedChange, RecordChange } from './audited-change';
export {
  type PolicyLimit,
  type PolicySwitch,
  type PolicyValues,
  policyDefaults,
  policyOfRow,
} from './policy-fields';
