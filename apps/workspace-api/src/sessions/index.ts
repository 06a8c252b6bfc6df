// The sessions feature's public face: what other features may use of it.
export { toKasmResponse } from './kasm-response';
export { createActingRule } from './acting-for-user';
export { createKasmReads, type KasmReads, type KasmWithOwners } from './kasm-owners';
export { currentPhaseWords } from './launch-timeline';
export { createKasmsRepository, type KasmRow } from './kasms.repository';
export { createSessionAccess, endUserAccess } from './session-access';
export { createInputRecorder } from './session-input';
export { createSessionLauncher, type LaunchObserver } from './session-launcher';
export { sessionProxy } from './session-proxy';
export { createSessionsServer, onSessionsListener, originGuard } from './sessions-listener';
export { createSessionSockets, SOCKET_RECHECK_MS } from './session-sockets';
export { createSocketHop } from './socket-hop';
export { createSessionWorker, type SessionWorker } from './session-worker';
export { sessionsRoutes } from './sessions.routes';
export { KasmSchema } from './sessions.schemas';
export { createSessionsService, type SessionsService } from './sessions.service';
export {
  attachSessionsListener,
  createSessionsFeature,
  type SessionsFeature,
} from './sessions.module';
export { type LaunchAnswer, type LaunchSession } from './launch-session';
export {
  createStagedPools,
  type StagedPools,
  type StagingPool,
  StagingRefusedError,
} from './staged-pools';
export { auditedCommand } from './exec-rule';
