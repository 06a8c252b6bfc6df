import {
  context,
  diag,
  DiagLogLevel,
  ProxyTracerProvider,
  type DiagLogFunction,
  type Tracer,
} from '@opentelemetry/api';
import { tracesUrl, type TracingConfig } from './tracing-env';

/** A service's tracing: where its spans are made, and how buffered ones are sent at the end. */
export interface Tracing {
  /** Makes spans; with tracing off, a no-op tracer whose spans record nothing. */
  tracer: Tracer;
  enabled: boolean;
  /** Sends the spans still buffered and stops exporting (the app's onClose). */
  shutdown(): Promise<void>;
}

/** Where the SDK's own troubles (a collector that refuses spans) are written. */
export interface TracingLog {
  warn(fields: object, message: string): void;
}

/**
 * A tracer whose spans record nothing, for code built without tracing (CLI commands). Its
 * provider is never given a delegate, so it stays no-op whatever else registers globally.
 */
export const noTracer: Tracer = new ProxyTracerProvider().getTracer('off');

const OFF: Tracing = {
  tracer: noTracer,
  enabled: false,
  shutdown: async () => undefined,
};

let processWide = false;

/**
 * Context follows async work through AsyncLocalStorage, and the SDK's troubles reach the log;
 * both are the process's (the API keeps them globally), so they are set once, by the first
 * service that traces.
 */
function installProcessWide(log: TracingLog): void {
  if (processWide) return;
  processWide = true;
  const { AsyncLocalStorageContextManager } =
    require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const write: DiagLogFunction = (message, ...args) => log.warn({ args }, `tracing: ${message}`);
  diag.setLogger(
    {
      error: write,
      warn: write,
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
}

/**
 * The SDK with a batching OTLP/HTTP (JSON) exporter when an endpoint is configured; otherwise
 * nothing starts and every span is a no-op. The SDK's standard variables (OTEL_TRACES_SAMPLER,
 * OTEL_BSP_*, OTEL_EXPORTER_OTLP_HEADERS, ...) apply as the specification says.
 */
export function startTracing(config: TracingConfig, log: TracingLog): Tracing {
  const url = tracesUrl(config);
  if (!url) return OFF;
  // The SDK and its exporter are loaded only when traces are sent: about 15 MiB of a service's
  // idle memory otherwise (bench/README.md).
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { defaultResource, resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { BasicTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  installProcessWide(log);
  const provider = new BasicTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME }),
    ),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  return {
    tracer: provider.getTracer(config.OTEL_SERVICE_NAME),
    enabled: true,
    // A collector out of reach loses the last spans; it never fails the app's close.
    shutdown: () =>
      provider
        .shutdown()
        .catch((error: unknown) => log.warn({ err: error }, 'tracing: spans not sent at shutdown')),
  };
}
