import { Type, type Static, type TObject } from '@sinclair/typebox';
import { parseAllowlist } from '@platform/outbound';
import { parseTrustProxy } from './trust-proxy';

/** The configuration keys both services share for abuse protection and outbound requests. */
export function securityEnv(defaults: { keyPrefix: string }) {
  return {
    TRUST_PROXY: Type.String({
      default: 'false',
      description: "false, or the proxies' addresses/CIDRs: whose X-Forwarded-For is believed",
    }),
    REDIS_URL: Type.String({
      default: '',
      pattern: '^(rediss?://.*)?$',
      description: 'Rate-limit counts shared by every replica; empty counts per process',
    }),
    RATE_LIMIT_KEY_PREFIX: Type.String({
      default: defaults.keyPrefix,
      minLength: 1,
      maxLength: 100,
      description: 'Prefix of the rate-limit keys in Redis',
    }),
    AUTH_FAILURE_LIMIT: Type.Integer({
      minimum: 0,
      default: 20,
      description:
        'Failed credentials per (client address, key/token) and window before 429; 0 turns it off',
    }),
    AUTH_FAILURE_ADDRESS_LIMIT: Type.Integer({
      minimum: 1,
      default: 200,
      description:
        'Failed credentials and logins per client address and window, whatever the keys, tokens or usernames',
    }),
    AUTH_FAILURE_WINDOW_SECONDS: Type.Integer({
      minimum: 1,
      maximum: 86_400,
      default: 300,
      description: 'The window in which failed credentials are counted',
    }),
    OUTBOUND_ALLOW_PRIVATE: Type.Boolean({
      default: false,
      description: 'Let webhooks/registries reach private, loopback and link-local addresses',
    }),
    OUTBOUND_ALLOWLIST: Type.String({
      default: '',
      description: 'Addresses, CIDR ranges and host names (*.example.org) always allowed',
    }),
    OUTBOUND_MAX_REDIRECTS: Type.Integer({
      minimum: 0,
      maximum: 10,
      default: 3,
      description: 'Redirects an outbound request follows, each checked again',
    }),
  };
}

export type SecurityConfig = Static<TObject<ReturnType<typeof securityEnv>>>;

/** Problems a JSON schema cannot see, one line per key, as `loadConfig` reports them. */
export function securityEnvProblems(config: SecurityConfig): string[] {
  const problems: string[] = [];
  const check = (key: string, run: () => unknown) => {
    try {
      run();
    } catch (error) {
      problems.push(`  ${key}: ${(error as Error).message}`);
    }
  };
  check('TRUST_PROXY', () => parseTrustProxy(config.TRUST_PROXY));
  check('OUTBOUND_ALLOWLIST', () => parseAllowlist(config.OUTBOUND_ALLOWLIST));
  return problems;
}
