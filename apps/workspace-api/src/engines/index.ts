// The engines module's public face: what other features may use of it. It loads no Docker
// client: createEngines (which does) is wired by the composition roots, app.ts and cli.ts, from
// ./engines/engines, so that commands without an engine stay light.
export {
  EngineError,
  ProfileRefusedError,
  engineReason,
  type ContainerSpec,
  type ExecSpec,
  type ProfileUser,
} from './engine';
export {
  checkEngineAddress,
  enginePolicy,
  sessionHost,
  type EngineAddress,
  type EnginePolicy,
} from './engine-address';
export { tlsFileProblems } from './engine-tls-files';
export type { EngineAgent, Engines } from './engines';
