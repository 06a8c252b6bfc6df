// The engines module's public face: what an engine is and which addresses may be dialled. It
// loads no Docker client: the Docker engine (docker/) implements this interface and is wired by
// the composition roots, app.ts and cli.ts, so that commands without an engine stay light.
export {
  EngineError,
  ProfileRefusedError,
  INSTALLATION_LABEL,
  SESSION_LABEL,
  engineReason,
  type ContainerFences,
  type ContainerFile,
  type ContainerSpec,
  type Engine,
  type EngineAgent,
  type EngineFailure,
  type Engines,
  type ExecOutput,
  type ExecRead,
  type ExecResult,
  type ExecSpec,
  type ProfileSpec,
  type ProfileUser,
} from './engine';
export {
  checkEngineAddress,
  enginePolicy,
  sessionHost,
  type EngineAddress,
  type EnginePolicy,
  type EngineTarget,
  type TlsPaths,
} from './engine-address';
export { tlsFileProblems } from './engine-tls-files';
