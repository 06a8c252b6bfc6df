/**
 * What the session logic needs from a container engine. Docker is the one implementation today;
 * another (Kubernetes pods) would sit beside it behind this interface.
 */
export interface Engine {
  /** What the engine's host offers, or a thrown EngineError when it does not answer. */
  info(): Promise<EngineInfo>;
  /** Makes the image present, pulling it when missing; throws EngineError when it cannot. */
  ensureImage(image: string): Promise<void>;
  /** Creates (not starts) a session's container and writes its files before it runs. */
  create(spec: ContainerSpec): Promise<string>;
  /** Starts a created container; answers the host port its session port is published on. */
  start(containerId: string, sessionPort: number): Promise<number>;
  exec(containerId: string, command: ExecSpec): Promise<ExecResult>;
  /** Stops and removes every container carrying this session's label; none is not an error. */
  removeSession(sessionId: string): Promise<void>;
  /** Sessions whose containers exist on the engine, by the label they carry. */
  listSessions(): Promise<{ sessionId: string; containerId: string; running: boolean }[]>;
}

export interface EngineInfo {
  cores: number;
  /** Bytes. */
  memory: number;
}

export interface ContainerFile {
  path: string;
  content: string;
  executable: boolean;
}

export interface ContainerSpec {
  sessionId: string;
  image: string;
  hostname?: string;
  env: Record<string, string>;
  cores: number;
  /** Bytes. */
  memory: number;
  shmSizeBytes?: number;
  /** A folder on the engine's host mounted at `home`, kept between sessions. */
  profile?: ProfileSpec;
  sessionPort: number;
  files: readonly ContainerFile[];
}

/**
 * A profile folder: `folders` below the operator's `root` (each one name, never `.` or `..`),
 * created without following links and owned by the image's user, or `user` when the image
 * does not name a numeric one.
 */
export interface ProfileSpec {
  root: string;
  folders: readonly string[];
  home: string;
  user: ProfileUser;
}

export interface ProfileUser {
  uid: number;
  gid: number;
}

export interface ExecSpec {
  cmd: string;
  env?: Record<string, string>;
  workdir?: string;
  user?: string;
  privileged?: boolean;
}

export interface ExecResult {
  exitCode: number;
  output: string;
}

/** The engine refused or did not answer; `message` says why in words an operator can act on. */
export class EngineError extends Error {
  override name = 'EngineError';
}

/** The container label that ties a container to its session. */
export const SESSION_LABEL = 'io.workspace-platform.session-id';
