/**
 * The one list of `run_config` and `exec_config` keys the platform honours (spec §8, §11), and
 * the rules for values that would hand a registry more than an image and its commands. Pure:
 * the registry's install and the container plan at launch both screen through it, so a row
 * stored before these rules cannot get past them either.
 */

/** run_config: the session server's port and scheme, /dev/shm, the host name, the profile's mount. */
export const RUN_CONFIG_KEYS = ['hostname', 'port', 'scheme', 'shm_size', 'home'] as const;
/** exec_config: the steps that run, in this order, and what each step may say. */
export const EXEC_STEPS = ['first_launch', 'go', 'assign'] as const;
export const EXEC_STEP_KEYS = ['cmd', 'environment', 'workdir', 'user', 'privileged'] as const;

/** An administrator's explicit, per-workspace exceptions (update_image); both false by default. */
export interface ConfigAllowances {
  /** exec_config steps may run as root and privileged. */
  allowRootExec: boolean;
  /** run_config.scheme `http`: the proxy then sends the container's password in clear. */
  allowPlainHttp: boolean;
}
export const NO_ALLOWANCES: ConfigAllowances = { allowRootExec: false, allowPlainHttp: false };

/** A key not honoured, and why; `key` is its path, e.g. `exec_config.go.user`. */
export interface ConfigNote {
  key: string;
  reason: string;
}

export interface WorkspaceConfig {
  runConfig: Record<string, unknown>;
  execConfig: Record<string, unknown>;
}

type Json = Record<string, unknown>;

// Docker settings (docker-py and Engine API spellings alike) that loosen the container's hold on
// its host. None of them reaches the engine from any row; they get their own reason so that an
// administrator reading an install's report sees what the registry tried.
const ISOLATION_KEYS = new Set(
  [
    'privileged',
    'user',
    'network_mode',
    'network',
    'pid_mode',
    'pid',
    'ipc_mode',
    'ipc',
    'uts_mode',
    'userns_mode',
    'cgroupns_mode',
    'cgroup_parent',
    'devices',
    'device_requests',
    'device_cgroup_rules',
    'cap_add',
    'security_opt',
    'volumes',
    'volumes_from',
    'mounts',
    'binds',
    'tmpfs',
    'sysctls',
    'runtime',
    'group_add',
    'oom_kill_disable',
  ].map((key) => key.replace(/_/g, '')),
);
const isIsolationKey = (key: string) => ISOLATION_KEYS.has(key.toLowerCase().replace(/[_-]/g, ''));

export const REASONS = {
  isolation: "weakens the container's isolation from its host: never taken from a registry",
  runKey: `not a run_config key the platform honours (${RUN_CONFIG_KEYS.join(', ')})`,
  step: `not a step the platform runs (${EXEC_STEPS.join(', ')})`,
  stepShape: 'must be an object with a cmd',
  stepKey: `not an exec_config key the platform honours (${EXEC_STEP_KEYS.join(', ')})`,
  home: 'must be an absolute path other than / without empty, . or .. segments',
  environment: 'must be an object of variables',
  workdir: 'must be a path',
  user: 'must be a user name or uid',
  privileged: 'must be true or false',
  volumeMapping: 'a host path: never mounted from a registry',
  rootExec:
    'runs the command as root: honoured only when an administrator sets allow_root_exec on the workspace',
  privilegedExec:
    'runs the command privileged: honoured only when an administrator sets allow_root_exec on the workspace',
  plainHttp:
    "sends the container's password in clear: honoured only when an administrator sets allow_plain_http on the workspace",
} as const;

const asObject = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

const isCleanHome = (value: unknown) =>
  typeof value === 'string' &&
  value.startsWith('/') &&
  value.length > 1 &&
  value
    .slice(1)
    .split('/')
    .every((s) => s !== '' && s !== '.' && s !== '..');

/** root, 0, and a group of root (`1000:0`): each gives the command what root has. */
export function isRootUser(user: unknown): boolean {
  if (typeof user !== 'string' && typeof user !== 'number') return false;
  return String(user)
    .trim()
    .split(':')
    .some((part) => part === 'root' || /^0+$/.test(part));
}

const STEP_VALUE_RULES: Record<string, (value: unknown) => string | undefined> = {
  cmd: () => undefined,
  environment: (v) => (asObject(v) ? undefined : REASONS.environment),
  workdir: (v) => (typeof v === 'string' ? undefined : REASONS.workdir),
  user: (v) =>
    typeof v === 'string' || (Number.isInteger(v) && (v as number) >= 0) ? undefined : REASONS.user,
  privileged: (v) => (typeof v === 'boolean' ? undefined : REASONS.privileged),
};

function allowlistRun(runConfig: Json, dropped: ConfigNote[]): Json {
  const kept: Json = {};
  for (const [key, value] of Object.entries(runConfig)) {
    const at = `run_config.${key}`;
    if (!(RUN_CONFIG_KEYS as readonly string[]).includes(key))
      dropped.push({ key: at, reason: isIsolationKey(key) ? REASONS.isolation : REASONS.runKey });
    else if (key === 'home' && !isCleanHome(value)) dropped.push({ key: at, reason: REASONS.home });
    else kept[key] = value;
  }
  return kept;
}

function allowlistStep(step: string, value: unknown, dropped: ConfigNote[]): Json | undefined {
  const at = `exec_config.${step}`;
  const item = asObject(value);
  if (!item || typeof item.cmd !== 'string') {
    dropped.push({ key: at, reason: REASONS.stepShape });
    return undefined;
  }
  const kept: Json = {};
  for (const [key, v] of Object.entries(item)) {
    const problem = STEP_VALUE_RULES[key]
      ? STEP_VALUE_RULES[key](v)
      : isIsolationKey(key)
        ? REASONS.isolation
        : REASONS.stepKey;
    if (problem) dropped.push({ key: `${at}.${key}`, reason: problem });
    else kept[key] = v;
  }
  return kept;
}

/** The honoured keys with readable values; everything else is left out, each with its reason. */
export function allowlistConfig(config: {
  runConfig: unknown;
  execConfig: unknown;
}): WorkspaceConfig & { dropped: ConfigNote[] } {
  const dropped: ConfigNote[] = [];
  const runConfig = allowlistRun(asObject(config.runConfig) ?? {}, dropped);
  const execConfig: Json = {};
  for (const [step, value] of Object.entries(asObject(config.execConfig) ?? {})) {
    if (!(EXEC_STEPS as readonly string[]).includes(step)) {
      dropped.push({ key: `exec_config.${step}`, reason: REASONS.step });
      continue;
    }
    const kept = allowlistStep(step, value, dropped);
    if (kept) execConfig[step] = kept;
  }
  return { runConfig, execConfig, dropped };
}

/**
 * What the workspace's allowances let through of an allowlisted config: root and privileged
 * commands lose their user and privileged flag (they run as the image's user, unprivileged);
 * an `http` scheme is withheld, and the launch refuses it rather than guess another.
 */
export function applyAllowances(
  config: WorkspaceConfig,
  allowances: ConfigAllowances,
): WorkspaceConfig & { withheld: ConfigNote[] } {
  const withheld: ConfigNote[] = [];
  const runConfig = { ...config.runConfig };
  if (runConfig.scheme === 'http' && !allowances.allowPlainHttp) {
    withheld.push({ key: 'run_config.scheme', reason: REASONS.plainHttp });
    delete runConfig.scheme;
  }
  const execConfig: Json = {};
  for (const [step, value] of Object.entries(config.execConfig)) {
    const item = { ...(value as Json) };
    if (!allowances.allowRootExec && isRootUser(item.user)) {
      withheld.push({ key: `exec_config.${step}.user`, reason: REASONS.rootExec });
      delete item.user;
    }
    if (!allowances.allowRootExec && item.privileged === true) {
      withheld.push({ key: `exec_config.${step}.privileged`, reason: REASONS.privilegedExec });
      delete item.privileged;
    }
    execConfig[step] = item;
  }
  return { runConfig, execConfig, withheld };
}

/** The config a session gets: allowlisted, then screened by the workspace's own allowances. */
export function effectiveConfig(
  config: { runConfig: unknown; execConfig: unknown },
  allowances: ConfigAllowances,
): WorkspaceConfig & { ignored: ConfigNote[] } {
  const allowed = allowlistConfig(config);
  const { runConfig, execConfig, withheld } = applyAllowances(allowed, allowances);
  return { runConfig, execConfig, ignored: [...allowed.dropped, ...withheld] };
}
