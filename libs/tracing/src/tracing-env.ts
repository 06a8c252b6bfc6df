import { Type, type Static, type TObject } from '@sinclair/typebox';

const OTLP_URL = '^(https?://[^\\s]+)?$';

/**
 * The configuration keys of tracing, the same in both services, under the names the OpenTelemetry
 * specification gives them. Neither endpoint set: tracing is off and no SDK runs.
 */
export function tracingEnv(serviceName: string) {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: Type.String({
      pattern: OTLP_URL,
      default: '',
      description:
        "Base URL of an OTLP/HTTP receiver (an OpenTelemetry Collector's, e.g. http://otel-collector:4318): spans go to <url>/v1/traces as JSON. Empty, with OTEL_EXPORTER_OTLP_TRACES_ENDPOINT empty too: tracing is off",
    }),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.String({
      pattern: OTLP_URL,
      default: '',
      description:
        'Full URL spans are sent to, as is; takes precedence over OTEL_EXPORTER_OTLP_ENDPOINT',
    }),
    OTEL_SERVICE_NAME: Type.String({
      minLength: 1,
      maxLength: 200,
      default: serviceName,
      description: 'service.name of the spans this process sends',
    }),
  };
}

export type TracingConfig = Static<TObject<ReturnType<typeof tracingEnv>>>;

/** Where spans are sent under a configuration; null when tracing is off. */
export function tracesUrl(config: TracingConfig): string | null {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
}
