// The session proxy's public face: a browser's way into a running session on the sessions
// origin (admission by connect token and grant cookie, HTTP and the desktop's WebSocket to the
// container) and the stream's messages. It stands on sessions/ (rows, endpoints, the hops the
// launcher prepares); sessions/ never imports it. Features of an open session grow here.
export {
  createRequestAdmission,
  type RequestAdmission,
  type SignedInUser,
  type SocketHold,
} from './session-admission';
export { originMatchesHost } from './session-origin';
export {
  createRunningSessions,
  type RunningSession,
  type RunningSessions,
} from './running-session';
export { sessionProxy, type SessionLanding } from './session-proxy';
export type { SessionOwner } from './session-owner-page';
export { attachSessionsListener, createSessionProxyFeature } from './session-proxy.module';
