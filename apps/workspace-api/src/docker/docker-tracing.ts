import { finished } from 'node:stream';
import type Docker from 'dockerode';
import { hasActiveSpan, recordFailure, SpanKind, type Tracer } from '@platform/tracing';

interface DialOptions {
  method: string;
  path: string;
}
type DialCallback = (error: unknown, result: unknown) => void;
interface Modem {
  dial(options: DialOptions, callback: DialCallback): void;
}

/** The request's path as a pattern: ids and image names out, so that calls of a kind share a name. */
export function apiRoute(path: string): string {
  return path
    .split('?')[0]
    .replace(/^\/images\/.+\/(json|history)$/, '/images/{name}/$1')
    .replace(/\/[0-9a-f]{64}(?=\/|$)/g, '/{id}');
}

const isStream = (value: unknown): value is NodeJS.ReadableStream =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { pipe?: unknown }).pipe === 'function';

/**
 * A client span per Engine API call, under the span active when it is made (none without one:
 * the background rounds' calls stay untraced). Every call of the Docker client goes through its
 * modem's `dial`; a streamed answer (a pull's progress, an exec's output) ends its span when the
 * stream does, so the span covers the whole transfer.
 */
export function traceDockerCalls(docker: Docker, tracer: Tracer, server: string): void {
  const modem = docker.modem as Modem;
  const dial = modem.dial.bind(modem);
  modem.dial = (options, callback) => {
    if (!hasActiveSpan()) return dial(options, callback);
    const route = apiRoute(options.path);
    const span = tracer.startSpan(`docker ${options.method} ${route}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': options.method,
        'url.template': route,
        'server.address': server,
      },
    });
    dial(options, (error, result) => {
      if (error) {
        const status = (error as { statusCode?: unknown }).statusCode;
        if (typeof status === 'number') span.setAttribute('http.response.status_code', status);
        recordFailure(span, error);
        span.end();
      } else if (isStream(result)) {
        finished(result, { writable: false }, (streamError) => {
          if (streamError) recordFailure(span, streamError);
          span.end();
        });
      } else {
        span.end();
      }
      callback(error, result);
    });
  };
}
