import { Type, type Static } from '@sinclair/typebox';
import { securityEnv, securityEnvProblems } from '@platform/http';
import { metricsEnv, metricsEnvProblems } from '@platform/metrics';
import { ConfigError, configReference, parseEnv, serviceEnv } from '@platform/schemas';
import { tracingEnv } from '@platform/tracing';
import { recordingStoreEnv, recordingStoreEnvProblems } from './config-recording-store';
import { socketsDirProblem } from './domain';

export const ConfigSchema = Type.Object({
  ...serviceEnv({ port: 3001, schema: 'workspace' }),
  ...securityEnv({ keyPrefix: 'workspace-api:' }),
  ...metricsEnv(),
  ...tracingEnv('workspace-api'),
  LOGIN_FAILURE_LIMIT: Type.Integer({
    minimum: 0,
    default: 3,
    description:
      'Failed logins per (client address, username) and window before 429, below MAX_FAILED_LOGINS so that it trips before the account lock; 0 turns it off',
  }),
  LOGIN_FAILURE_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 300,
    description: 'The window in which refused logins are counted',
  }),
  BCRYPT_COST: Type.Integer({
    minimum: 4,
    maximum: 15,
    default: 12,
    description: 'bcrypt cost of user passwords',
  }),
  MAX_FAILED_LOGINS: Type.Integer({
    minimum: 1,
    default: 5,
    description:
      'Consecutive wrong passwords from addresses the user signed in from that lock the account; per window from any other address, the count past which those addresses get 429 for that account',
  }),
  SLOWED_LOGIN_INTERVAL_MS: Type.Integer({
    minimum: 1,
    maximum: 600_000,
    default: 3000,
    description:
      "Once an account's failed logins from new addresses reach MAX_FAILED_LOGINS in the window, its logins from new addresses are still checked (a right password signs in), one at a time and at least this far apart, instead of refused",
  }),
  PASSWORD_CHECKS_WAITING: Type.Integer({
    minimum: 1,
    default: 32,
    description:
      'Sign-in password checks that may wait for the one bcrypt thread; past it a sign-in gets 503 with Retry-After',
  }),
  PASSWORD_WORKER_NICE: Type.Integer({
    minimum: 0,
    maximum: 19,
    default: 19,
    description:
      "The bcrypt thread's CPU nice value: 19 keeps hashing from slowing requests, but under sustained full CPU it can delay sign-ins for minutes; lower trades the requests' latency for the checks'",
  }),
  PASSWORD_CHECKS_PER_ADDRESS: Type.Integer({
    minimum: 1,
    default: 4,
    description:
      "One client address's sign-in password checks waiting or running at once; past it 429 with Retry-After",
  }),
  SESSION_TTL_HOURS: Type.Integer({
    minimum: 1,
    default: 12,
    description: "Lifetime of a login session (also the web page's)",
  }),
  LOGIN_LINK_TTL_SECONDS: Type.Integer({
    minimum: 10,
    maximum: 86_400,
    default: 300,
    description: 'How long a get_login sign-in link works (once)',
  }),
  PLATFORM_VERSION: Type.String({
    pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$',
    default: '1.16.2',
    description: 'Registry entries are compatible when they list this version as <major>.<minor>.x',
  }),
  REGISTRY_FETCH_TIMEOUT_MS: Type.Integer({
    minimum: 50,
    default: 10_000,
    description: 'Per file fetched from a registry',
  }),
  REGISTRY_MAX_BYTES: Type.Integer({
    minimum: 1024,
    default: 5_242_880,
    description: 'Largest versions.txt or list.json accepted',
  }),
  REGISTRY_ALLOW_LOCAL_PATHS: Type.Boolean({
    default: false,
    description:
      'Whether add_registry accepts a local directory (a file on the server); npm start turns it on outside NODE_ENV=production',
  }),
  SESSION_URL_SCHEME: Type.Union([Type.Literal('https'), Type.Literal('http')], {
    default: 'https',
    description:
      'Scheme of session URLs (kasm_url); http only where the platform is served without TLS',
  }),
  SESSION_PORT: Type.Integer({
    minimum: 0,
    maximum: 65_535,
    default: 3003,
    description:
      "The sessions listener: sessions (/kasm/…) are served only here, the console, sign-in and API only on PORT, so that a session's page is on another origin than the platform's (zones point here, or at a sessions host name routed here); 0 serves both on PORT, one origin, for tests only",
  }),
  SESSION_KEEPALIVE_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 604_800,
    default: 3600,
    description: 'A session expires this long after its start or last keepalive',
  }),
  SESSION_TIME_LIMIT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 31_536_000,
    default: 86_400,
    description: 'No keepalive extends a session past this long after its start',
  }),
  EXEC_COMMAND_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 300,
    description:
      'An exec_command_kasm command still running after this long is killed with its children (exit code 124)',
  }),
  SESSION_LAUNCH_TIMEOUT_SECONDS: Type.Integer({
    minimum: 5,
    maximum: 3600,
    default: 300,
    description: 'A launch (image pull included) that takes longer fails and is cleaned up',
  }),
  LAUNCH_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 2,
    description:
      'Launches whose placement (or staged hand-over) runs at once per process; the others wait their turn without holding a database connection. At most DATABASE_POOL_MAX',
  }),
  LAUNCH_QUEUE_MAX: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    default: 500,
    description:
      'Launches that may wait for their turn per process; one more is answered 503 LAUNCH_QUEUE_FULL at once',
  }),
  LAUNCH_QUEUE_WAIT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 120,
    description:
      'The longest a launch waits for its turn; then it is answered 503 LAUNCH_QUEUE_FULL (retryable)',
  }),
  LAUNCH_QUEUE_ANSWER_MS: Type.Integer({
    minimum: 0,
    maximum: 3_600_000,
    default: 2000,
    description:
      'A launch whose turn does not come within this is answered at once with its kasm_id and status queued; get_kasm_status then shows its place in the queue until it is placed. At LAUNCH_QUEUE_WAIT_SECONDS (in ms) or more, every launch answers only when its turn is done',
  }),
  SESSION_GRANT_TTL_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 31_536_000,
    default: 43_200,
    description:
      "How long a browser's admission to a session (the proxy's grant cookie) lasts; never past the session's time limit",
  }),
  SESSION_GRANT_MAX_WEBSOCKETS: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 16,
    description:
      'How many WebSockets one grant (a browser admitted to a session) may hold open through the proxy at once; more are refused with 429',
  }),
  SESSION_WEBSOCKET_IDLE_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 3600,
    description:
      'A WebSocket through the proxy with no traffic either way for this long is closed (a quiet desktop sends nothing: keep it long)',
  }),
  SESSION_WATCH_GRACE_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 300,
    default: 10,
    description:
      "How long an administrator's watch outlasts its last stream: a stream back within this (a network blip, the watcher's page reconnecting) continues the same watch, with no new watch_started or watch_ended and the owner's notice kept; 0 ends the watch when its last stream closes",
  }),
  SESSION_LEASE_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 600,
    default: 30,
    description:
      'How long a launch or stop may go unrenewed before another replica takes it as abandoned and cleans up (an abandoned resume goes back to stopped instead)',
  }),
  SESSION_SWEEP_INTERVAL_MS: Type.Integer({
    minimum: 50,
    maximum: 3_600_000,
    default: 5000,
    description: 'How often the reaper, the reconciler and the agent heartbeat run',
  }),
  LOCAL_AGENT: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'off',
    description:
      '`setup` registers the Docker engine of this machine (DOCKER_HOST or the default socket) as agent "local"; npm start turns it on',
  }),
  DOCKER_HOST: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'The local Docker engine, as the docker CLI reads it',
    }),
  ),
  ENGINE_SOCKET_PATHS: Type.String({
    pattern: '^/[^,\\s]*(,/[^,\\s]*)*$',
    default: '/var/run/docker.sock,/run/docker.sock',
    description:
      "Comma-separated absolute socket paths that an agent's unix:// docker_url may name (DOCKER_HOST's socket is allowed too)",
  }),
  ENGINE_TLS_DIR: Type.String({
    pattern: '^(/(?!\\.\\.?(/|$))[^/\\u0000]+)+$',
    default: '/etc/workspace-api/engines',
    description:
      "The folder an agent's TLS files (tls_ca_path, tls_cert_path, tls_key_path) must lie in; the service reads no TLS file outside it",
  }),
  SSO_REQUIRED: Type.Boolean({
    default: false,
    description:
      'Refuse password sign-in (web page, console, authenticate) to everyone but SSO_BREAK_GLASS_USERS: users sign in through an identity provider',
  }),
  SSO_BREAK_GLASS_USERS: Type.String({
    default: '',
    maxLength: 4096,
    description:
      'Comma-separated usernames (administrators) that may still sign in with a password while SSO_REQUIRED, for when the identity provider is down',
  }),
  ENGINE_ALLOW_INSECURE_TCP: Type.Boolean({
    default: false,
    description:
      'LAB ONLY: accept tcp:// engines without TLS; anyone on that network then owns the engine and its host',
  }),
  PROFILE_ROOT: Type.String({
    // Absolute, no . or .. level, no backslash, no : or , (the syntax of the engine's binds).
    pattern: '^(/(?!\\.\\.?(/|$))[^/\\\\:,\\u0000-\\u001f]+)+$',
    default: '/var/lib/workspace-api/profiles',
    description:
      "The folder on each agent's host that persistent profiles must lie in; a filled profile path outside it is refused at launch",
  }),
  PROFILE_UID: Type.Integer({
    // Never root: a level above a profile's home must belong to root, a home never does.
    minimum: 1,
    maximum: 2_147_483_647,
    default: 1000,
    description:
      'Owner of a new profile folder when the image does not run as a numeric non-root user (Kasm images run as 1000)',
  }),
  PROFILE_GID: Type.Integer({
    minimum: 0,
    maximum: 2_147_483_647,
    default: 1000,
    description: 'Group of a new profile folder, beside PROFILE_UID',
  }),
  SESSION_SOCKETS_DIR: Type.String({
    // Absolute, as PROFILE_ROOT: it is also a bind's source on this machine's engine.
    pattern: '^$|^(/(?!\\.\\.?(/|$))[^/\\\\:,\\u0000-\\u001f]+)+$',
    default: '',
    description:
      "The socket hop: a folder (made mode 0700) where sessions on this machine's engine (unix:// agents) serve the proxy on a Unix socket, without TLS or the engine's port proxy; at most 58 bytes; empty turns it off; npm start turns it on in .data/session-sockets (a deep checkout: in the temporary folder)",
  }),
  RECORDINGS_DIR: Type.String({
    minLength: 1,
    default: '.data/recordings',
    description:
      'Where session recordings are written (docs/recording.md): <dir>/<yyyy>/<mm>/<dd>/<kasm_id>-<recording_id>.rec; relative to the working folder unless absolute',
  }),
  RECORDING_SIGNING_KEY: Type.String({
    pattern: '^$|^.{32,}$',
    default: '',
    description:
      "A secret (32 characters or more) that signs recordings' digest chains (HMAC-SHA-256): without it, anyone who can write the files could rebuild the chain; empty: plain SHA-256",
  }),
  RECORDING_KEYFRAME_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 10,
    description:
      'At most how long apart a recording keeps a whole screen (a keyframe) while the screen changes: playback seeks from the one before',
  }),
  RECORDING_SCAN_MS: Type.Integer({
    minimum: 50,
    maximum: 600_000,
    default: 1000,
    description:
      'How often running sessions are checked for recordings to start (a new session is recorded from its first screen within this), and old ones removed',
  }),
  ...recordingStoreEnv(),
  SESSION_WORKER: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description: 'Run the reaper, reconciler and heartbeat in this process (safe on every replica)',
  }),
  API_KEY_CACHE: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      'Keep verified API keys in memory, invalidated through LISTEN/NOTIFY (needs a session, not a transaction pooler)',
  }),
});
export type Config = Static<typeof ConfigSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = parseEnv(ConfigSchema, env);
  const problems = [
    ...securityEnvProblems(config),
    ...metricsEnvProblems(config),
    ...loginLimitProblems(config),
    ...socketsDirProblems(config),
    ...recordingStoreEnvProblems(config),
    ...(config.SESSION_PORT !== 0 && config.SESSION_PORT === config.PORT
      ? [
          `SESSION_PORT (${config.SESSION_PORT}) must differ from PORT: sessions need an origin of their own`,
        ]
      : []),
  ];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  return config;
}

/** The usernames SSO_BREAK_GLASS_USERS names, as stored (trimmed, lower-cased). */
export const breakGlassUsers = (config: Pick<Config, 'SSO_BREAK_GLASS_USERS'>) =>
  new Set(
    config.SSO_BREAK_GLASS_USERS.split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );

/** The per-(address, username) throttle must refuse before one address can lock the account. */
function loginLimitProblems(config: Config): string[] {
  const { LOGIN_FAILURE_LIMIT: limit, MAX_FAILED_LOGINS: lockAt } = config;
  if (limit === 0 || limit < lockAt) return [];
  return [
    `LOGIN_FAILURE_LIMIT (${limit}) must be below MAX_FAILED_LOGINS (${lockAt}), or 0 to turn the throttle off`,
  ];
}

function socketsDirProblems({ SESSION_SOCKETS_DIR: dir }: Config): string[] {
  const problem = dir ? socketsDirProblem(dir) : null;
  return problem ? [problem] : [];
}

/** The configuration reference committed as docs/configuration/workspace-api.md. */
export const configReferenceText = () =>
  configReference(
    'workspace-api',
    ConfigSchema,
    'npm run workspace -- config reference docs/configuration/workspace-api.md',
  );

/**
 * A secret an identity provider's settings name by environment variable (sso/): read when it is
 * used, so that the settings hold only the variable's name. The one other reader of the
 * environment, next to loadConfig.
 */
export const referencedSecret = (
  name: string,
  env: Record<string, string | undefined> = process.env,
): string | undefined => env[name];
