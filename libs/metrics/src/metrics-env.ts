import { Type, type Static, type TObject } from '@sinclair/typebox';

/**
 * The configuration keys of `/metrics`, the same in both services. Neither set: no `/metrics`
 * at all. METRICS_PORT set: `/metrics` on its own listener there, never on the public port.
 * METRICS_TOKEN set: `/metrics` asks for `Authorization: Bearer <token>` wherever it is served.
 */
const MIN_TOKEN_LENGTH = 32;

export function metricsEnv() {
  return {
    METRICS_PORT: Type.Integer({
      minimum: 0,
      maximum: 65_535,
      default: 0,
      description:
        'Serve /metrics on its own listener on this port (for Prometheus scraping the pod), never on the public one; 0 for none',
    }),
    METRICS_TOKEN: Type.String({
      default: '',
      description:
        'Bearer token /metrics asks for, at least 32 characters; without METRICS_PORT it also serves /metrics on the public port. Empty: no token (and, without METRICS_PORT, no /metrics)',
    }),
  };
}

export type MetricsConfig = Static<TObject<ReturnType<typeof metricsEnv>>>;

/** Where `/metrics` is served under a configuration (docs/metrics.md explains the choice). */
export function metricsExposure(config: MetricsConfig): 'off' | 'public-port' | 'own-port' {
  if (config.METRICS_PORT > 0) return 'own-port';
  return config.METRICS_TOKEN ? 'public-port' : 'off';
}

/** Problems a JSON schema cannot see, one line per key, as `loadConfig` reports them. */
export function metricsEnvProblems(config: MetricsConfig & { PORT: number }): string[] {
  const problems: string[] = [];
  if (config.METRICS_PORT > 0 && config.METRICS_PORT === config.PORT)
    problems.push(
      '  METRICS_PORT: must differ from PORT (metrics are served on a listener of their own)',
    );
  // Wrong tokens are not throttled: only length keeps guessing out of reach.
  if (config.METRICS_TOKEN && config.METRICS_TOKEN.length < MIN_TOKEN_LENGTH)
    problems.push(
      `  METRICS_TOKEN: must be at least ${MIN_TOKEN_LENGTH} characters (a long random string, e.g. \`openssl rand -hex 32\`)`,
    );
  return problems;
}
