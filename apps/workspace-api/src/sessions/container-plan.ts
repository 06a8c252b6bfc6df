import { type ConfigNote, effectiveConfig, socketFolderOf } from '../domain';
import type { ContainerFences, ContainerSpec, ExecSpec, ProfileUser } from '../engines';
import type { LaunchPlan } from '../launch-plan';
import { profileFolder } from './profile-folder';

/** How the session's own server is reached, from the workspace's run_config. */
export interface SessionEndpoint {
  port: number;
  scheme: 'http' | 'https';
}

export interface LaunchInput {
  plan: LaunchPlan;
  /** VNC_PW: the container's password, sent by the proxy, never shown to the user. */
  containerSecret: string;
  /** The request's `environment`, then `kasm_url` (where a browser in the session should go). */
  environment: Record<string, string>;
  kasmUrl?: string;
  /** The agent's profile root (PROFILE_ROOT) and who owns a profile when the image does not say. */
  profiles: { root: string; user: ProfileUser };
  /** SESSION_SOCKETS_DIR ('' for off) and the agent's engine address (the hop is local only). */
  socketHop: { socketsDir: string; agentDockerUrl: string };
  /** The session's certificate and key (PEM), made by the platform: its container serves them. */
  certificate?: string;
}

export type LaunchSteps =
  | {
      ok: true;
      container: ContainerSpec;
      endpoint: SessionEndpoint;
      exec: ExecSpec[];
      /**
       * exec_config.first_launch: run before `exec`, once for a new home. Its marker is a file
       * of the home, made by the image's user once the steps succeeded: a profile that kept it
       * skips them.
       */
      firstLaunch: { steps: ExecSpec[]; marker: string };
      /** Whether a step's user may resolve to root in the container (allow_root_exec). */
      rootExecAllowed: boolean;
      /** What the workspace's config asked for and the session does not get, with why. */
      ignored: ConfigNote[];
    }
  | { ok: false; reason: string };

// Kasm images keep the user's home here and serve KasmVNC over HTTPS on 6901.
const KASM_HOME = '/home/kasm-user';
/** Where the platform's images read the session's certificate and key (workspace-start). */
export const SESSION_PEM_PATH = '/etc/workspace-platform/session.pem';
/** Where KasmVNC reads them, below the home (Kasm's own start-up script writes its own there). */
const KASMVNC_PEM = '.vnc/self.pem';
const KASM_PORT = 6901;

/**
 * Every session's container, whatever its image asks. An image running as a non-root user (Kasm's
 * and the platform's: uid 1000) keeps no capability. One starting as root keeps only what it
 * needs to use its files and drop to its user (chown, read and write any file of its own
 * container, change uid and gid, signal, bind a low port); never NET_RAW (raw sockets: ARP
 * spoofing), MKNOD, SETFCAP, SYS_CHROOT. No process gains privileges through setuid programs or
 * file capabilities, so those kept are gone once it drops to its user; the process table is
 * bounded (threads count: Firefox holds a few hundred).
 */
export const SESSION_FENCES: ContainerFences = {
  capAdd: [],
  rootCapAdd: [
    'CHOWN',
    'DAC_OVERRIDE',
    'FOWNER',
    'FSETID',
    'KILL',
    'SETGID',
    'SETUID',
    'NET_BIND_SERVICE',
  ],
  noNewPrivileges: true,
  pidsLimit: 1024,
};
const SIZE = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i;
const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** Docker's size notation (`512m`, `1g`, or bytes as a number); undefined when absent or unreadable. */
export function parseSize(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value);
  if (typeof value !== 'string') return undefined;
  const match = SIZE.exec(value.trim());
  if (!match) return undefined;
  return Math.floor(Number(match[1]) * UNITS[match[2].toLowerCase()]);
}

export function endpointOf(runConfigValue: unknown): SessionEndpoint | string {
  const runConfig = asObject(runConfigValue);
  const port = runConfig.port ?? KASM_PORT;
  if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) {
    return `run_config.port must be a port number (1-65535), not ${JSON.stringify(port)}`;
  }
  const scheme = runConfig.scheme ?? 'https';
  if (scheme !== 'http' && scheme !== 'https') {
    return `run_config.scheme must be "http" or "https", not ${JSON.stringify(scheme)}`;
  }
  return { port: port as number, scheme };
}

/** The commands exec_config asks for once the container runs: `go`, then `assign`. */
/** Where a home records that its first_launch steps ran (Kasm runs them once a profile). */
export const FIRST_LAUNCH_MARKER = '.config/workspace-platform/first-launch-done';

function execSteps(
  execConfig: unknown,
  env: Record<string, string>,
  steps: readonly string[],
): ExecSpec[] {
  const config = asObject(execConfig);
  return steps.flatMap((step) => {
    const item = asObject(config[step]);
    if (typeof item.cmd !== 'string' || item.cmd.trim() === '') return [];
    const stepEnv = Object.fromEntries(
      Object.entries(asObject(item.environment)).map(([k, v]) => [k, String(v)]),
    );
    return [
      {
        cmd: item.cmd,
        env: { ...env, ...stepEnv },
        workdir: typeof item.workdir === 'string' ? item.workdir : undefined,
        user: item.user === undefined ? undefined : String(item.user),
        privileged: item.privileged === true,
      },
    ];
  });
}

/**
 * The session's certificate and key where the platform's images read them, and where KasmVNC
 * does, in the home: never into a profile folder mounted there, which is the user's (and kept).
 */
function certificateFiles(pem: string, user: ProfileUser, home: string | undefined) {
  const paths = [SESSION_PEM_PATH, ...(home ? [`${home.replace(/\/+$/, '')}/${KASMVNC_PEM}`] : [])];
  return paths.map((path) => ({ path, content: pem, executable: false, privateTo: user }));
}

/**
 * What the launcher asks of the engine to carry out a plan; pure, so every rule is unit-tested.
 * The workspace's config is screened here again, whatever row or stored plan it came from.
 */
export function launchSteps({
  plan,
  containerSecret,
  environment,
  kasmUrl,
  profiles,
  socketHop,
  certificate,
}: LaunchInput): LaunchSteps {
  const config = effectiveConfig(
    { runConfig: plan.image.runConfig, execConfig: plan.execConfig },
    // A plan stored before the allowances existed has none: it gets none.
    {
      allowRootExec: plan.image.allowRootExec === true,
      allowPlainHttp: plan.image.allowPlainHttp === true,
    },
  );
  const refused = config.ignored.find((note) => note.key === 'run_config.scheme');
  if (refused) return { ok: false, reason: `run_config.scheme "http" ${refused.reason}` };
  const { runConfig } = config;
  const endpoint = endpointOf(runConfig);
  if (typeof endpoint === 'string') return { ok: false, reason: endpoint };
  const profile = plan.persistentProfilePath;
  if (profile && !profile.startsWith('/')) {
    return {
      ok: false,
      reason: `Profiles at ${profile} are not supported: a Docker agent mounts a folder path`,
    };
  }
  const folder = profile ? profileFolder(profiles.root, profile) : undefined;
  if (typeof folder === 'string') return { ok: false, reason: folder };
  const home = typeof runConfig.home === 'string' ? runConfig.home : KASM_HOME;
  const env = { ...environment, KASM_URL: kasmUrl ?? plan.sessionUrl, VNC_PW: containerSecret };

  return {
    ok: true,
    endpoint,
    container: {
      sessionId: plan.sessionId,
      image: plan.image.name,
      hostname: typeof runConfig.hostname === 'string' ? runConfig.hostname : undefined,
      env,
      cores: plan.resources.cores,
      memory: plan.resources.memory,
      shmSizeBytes: parseSize(runConfig.shm_size),
      profile: folder && { ...folder, home, user: profiles.user },
      sessionPort: endpoint.port,
      socketFolder: socketFolderOf(socketHop.socketsDir, plan.sessionId, socketHop.agentDockerUrl),
      files: [
        ...plan.fileMappings.map((m) => ({
          path: m.destination,
          content: m.content,
          executable: m.executable,
        })),
        ...(certificate
          ? certificateFiles(certificate, profiles.user, folder ? undefined : home)
          : []),
      ],
      fences: SESSION_FENCES,
    },
    exec: execSteps(config.execConfig, { KASM_URL: env.KASM_URL }, ['go', 'assign']),
    firstLaunch: {
      steps: execSteps(config.execConfig, { KASM_URL: env.KASM_URL }, ['first_launch']),
      marker: `${home.replace(/\/+$/, '')}/${FIRST_LAUNCH_MARKER}`,
    },
    rootExecAllowed: plan.image.allowRootExec === true,
    ignored: config.ignored,
  };
}
