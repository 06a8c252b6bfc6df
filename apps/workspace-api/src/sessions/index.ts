// The sessions feature's public face: what other features may use of it.
export { toKasmResponse } from './kasm-response';
export { toWaitResponse, type WaitStatus } from './launch-wait-status';
export { createActingRule } from './acting-for-user';
export { createKasmReads, type KasmReads, type KasmWithOwners } from './kasm-owners';
export { currentPhaseWords } from './launch-timeline';
export { createKasmsRepository, type KasmRow, type KasmsRepository } from './kasms.repository';
export { endUserAccess } from './end-user-access';
export { containerEndpoint } from './session-endpoint';
// How the proxy reaches a session's container: the launcher prepares both, the proxy dials them.
export { CertificatePinError, checkPin, connectPinned } from './pinned-tls';
export { createSocketHop, type Hop, type SocketHop } from './socket-hop';
// A running session's display, for programs that drive it (session-driver).
export {
  byteReader,
  type DisplayStream,
  MAX_SCREEN_PIXELS,
  ScreenUnreadableError,
  updateRequest,
  pixelFormat32,
  setEncodings,
} from './display-stream';
export { type ReachedDisplay, type SessionDisplays } from './session-display';
export { createSessionLauncher, type LaunchObserver } from './session-launcher';
export { createSessionWorker, type SessionWorker } from './session-worker';
export { sessionsRoutes } from './sessions.routes';
export { KasmSchema } from './sessions.schemas';
export { createSessionsService, type SessionsService } from './sessions.service';
export { ACTIVITIES, type Activity } from './kasm-overview.sql';
export {
  IDLE_AFTER_SECONDS,
  type LaunchHour,
  type LiveOverview,
  type LiveSessionLine,
  type PlaceTally,
  type SessionsOverview,
} from './sessions-overview';
export { createSessionsFeature, type SessionsFeature } from './sessions.module';
export { type LaunchAnswer, type LaunchSession } from './launch-session';
export {
  createStagedPools,
  type StagedPools,
  type StagingPool,
  StagingRefusedError,
} from './staged-pools';
export { auditedCommand } from './exec-rule';
