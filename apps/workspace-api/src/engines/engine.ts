import type { Readable } from 'node:stream';
import type { EngineAddress } from './engine-address';

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
  /**
   * Runs `command` (as the image's user unless it names one) with `input` streamed to its
   * stdin, which ends when `input` ends or fails; answers once the command has ended.
   */
  execInput(containerId: string, command: ExecSpec, input: Readable): Promise<ExecResult>;
  /**
   * Starts `command` (as the image's user unless it names one) with its stdin open and hands back
   * its stdout as it comes, for as long as it runs (sound). `stop()` closes its stdin, on which the
   * command must end (and end what it started); the engine closes it too when its connection drops.
   */
  execOutput(containerId: string, command: ExecSpec): Promise<ExecOutput>;
  /**
   * Runs `command` (as the image's user unless it names one) with no stdin and hands back its
   * stdout as it comes, read from the engine only as fast as it is consumed (a download);
   * destroying `stdout` cuts the command's connection.
   */
  execRead(containerId: string, command: ExecSpec): Promise<ExecRead>;
  /**
   * Whether a command run as `user` (none: the image's user) gets uid or gid 0, by the
   * container's own passwd and group files.
   */
  runsAsRoot(containerId: string, user: string | undefined): Promise<boolean>;
  /** Stops a running container and keeps it (and its disk); stopped already is not an error. */
  stop(containerId: string): Promise<void>;
  /** Freezes a running container's processes (docker pause). */
  pause(containerId: string): Promise<void>;
  /** Thaws a paused container. */
  unpause(containerId: string): Promise<void>;
  /**
   * Stops and removes every container carrying this session's label, then the session's own
   * network; none is not an error.
   */
  removeSession(sessionId: string): Promise<void>;
  /**
   * This installation's sessions whose containers exist on the engine, by the label they carry
   * (with those made before installations were labelled, which can only be its own).
   */
  listSessions(): Promise<{ sessionId: string; containerId: string; running: boolean }[]>;
  /** This installation's sessions whose own networks exist on the engine (a network outlives a failed create). */
  listSessionNetworks(): Promise<string[]>;
}

/** The agent an engine call is for: its address, and its id and hostname for the log. */
export type EngineAgent = EngineAddress & { id?: string; hostname?: string };

/** The engine of each agent (the composition roots make it: see docker/). */
export interface Engines {
  forAgent(agent: EngineAgent): Engine;
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
  /** A secret (a key): owned by this user, it and its folder readable by it alone. */
  privateTo?: ProfileUser;
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
  /**
   * A folder on the engine's host (which is the service's), mounted at SOCKET_HOP_MOUNT only in
   * an image that declares the hop (SOCKET_HOP_LABEL), whose command serves it as root.
   */
  socketFolder?: string;
  files: readonly ContainerFile[];
  fences: ContainerFences;
}

/** What every session container is held to, whatever its image (container-plan.ts). */
export interface ContainerFences {
  /** Capabilities kept for an image that runs as a non-root user; every other one is dropped. */
  capAdd: readonly string[];
  /** Capabilities kept for an image that starts as root (and usually drops to its user). */
  rootCapAdd: readonly string[];
  /** No process gains privileges through exec (setuid, file capabilities). */
  noNewPrivileges: boolean;
  /** Processes and threads the container may hold at once. */
  pidsLimit: number;
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
  /** Past this, the command and the processes it started are killed (exec_command_kasm). */
  timeoutMs?: number;
}

export interface ExecResult {
  exitCode: number;
  output: string;
  /** The command ran past its time limit and was ended. */
  timedOut?: boolean;
}

/** A command started by execOutput: its stdout streamed, its end, and a way to end it. */
export interface ExecOutput {
  /** The command's stdout, raw; it ends when the command does. */
  stdout: NodeJS.ReadableStream;
  /** The exit code and (the first KiB of) stderr, once the command has ended. */
  ended: Promise<{ exitCode: number; stderr: string }>;
  /** Closes the command's stdin; resolves once it ended (or its connection was cut after a grace). */
  stop(): Promise<void>;
}

/** A command started by execRead: its stdout, and its end. */
export interface ExecRead {
  /** The command's stdout, raw; it ends when the command does. */
  stdout: Readable;
  /** The exit code and (the first KiB of) stderr, once the command has ended or was cut. */
  ended: Promise<{ exitCode: number; stderr: string }>;
}

/**
 * Why an engine call failed, in words fit for anyone who may read a session or an agent: each a
 * fixed sentence with a stable code. The engine's own words stay in the log (`detail`), because
 * they can carry host paths, image internals or whatever the engine echoed back.
 */
export const ENGINE_FAILURES = {
  ENGINE_NO_ADDRESS: 'The agent has no engine address (docker_url)',
  ENGINE_ADDRESS_REFUSED: "The agent's engine address is not allowed by this service's settings",
  ENGINE_TLS_FILES_UNREADABLE: "The agent's TLS files cannot be read",
  ENGINE_UNREACHABLE: "The agent's engine does not answer",
  ENGINE_TLS_FAILED: "The agent's engine could not be reached over verified TLS",
  ENGINE_TIMEOUT: "The agent's engine did not answer in time",
  ENGINE_IMAGE_UNAVAILABLE: 'The workspace image is not on the agent and could not be pulled',
  ENGINE_CREATE_REFUSED: "The agent's engine refused to create the container",
  ENGINE_NETWORK_REFUSED: "The agent's engine refused to create the session's network",
  ENGINE_FILES_REFUSED: "The agent's engine refused the workspace's files",
  ENGINE_START_REFUSED: "The agent's engine refused to start the container",
  ENGINE_PORT_MISSING: "The container's session port was not published",
  ENGINE_EXEC_REFUSED: "The agent's engine refused to run the command",
  ENGINE_STOP_REFUSED: "The agent's engine refused to stop the container",
  ENGINE_PAUSE_REFUSED: "The agent's engine refused to pause or unpause the container",
  ENGINE_REMOVE_REFUSED: "The agent's engine refused to remove the container",
  ENGINE_LIST_REFUSED: "The agent's engine refused to list the containers",
  ENGINE_PROFILE_REFUSED: "The agent's engine could not prepare the profile folder",
} as const;
export type EngineFailure = keyof typeof ENGINE_FAILURES;

/**
 * The engine refused or did not answer. `message` is the plain reason and its code, safe to show;
 * `detail` is what the engine or the connection said, for the log only.
 */
export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    readonly failure: EngineFailure,
    readonly detail = '',
  ) {
    super(`${ENGINE_FAILURES[failure]} (${failure})`);
  }
}

/**
 * A profile folder on the agent that the platform will not mount (a link, not a folder, owned by
 * a session's user): our own sentence, which the session and its user's page may show.
 */
export class ProfileRefusedError extends Error {
  override name = 'ProfileRefusedError';
}

/** The container label that ties a container to its session. */
export const SESSION_LABEL = 'io.workspace-platform.session-id';

/**
 * The container and network label that names the installation (its database) that made them:
 * a session worker removes orphans of its own installation only, so that several share an engine.
 */
export const INSTALLATION_LABEL = 'io.workspace-platform.installation-id';

/** The reason to store or show for a failed engine call: the plain one, never the engine's words. */
export const engineReason = (error: unknown): string =>
  (error instanceof EngineError ? error : new EngineError('ENGINE_UNREACHABLE')).message;
