import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';

/** Fields that hold secrets in request bodies: a password, an API key's secret. */
const SECRET_FIELDS = ['password', 'api_key_secret'];

/**
 * Credentials never written to logs. Fastify's request serializer already leaves out headers
 * and bodies; these paths cover anything that logs them explicitly, as `headers` or `body` (its
 * fields and those one level in, such as `target_user.password`), or a secret field on its own.
 * Every path starts with a name: a leading wildcard (`*.password`) would run every value of every
 * line, the request line included, through the redactor, about 10 µs a request
 * (docs/decisions/0007-request-log-lines.md), while a line without these keys costs nothing.
 */
export const REDACTED_PATHS = [
  'headers.authorization',
  'headers.cookie',
  'headers["api-key-secret"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `body.${field}`, `body.*.${field}`]),
];

/** Query parameters that carry credentials (a session's connect link, a feed token): never logged. */
export const SECRET_QUERY_PARAMS = ['kasm_token', 'token', 'api_key_secret'];

/** The request URL as logged: secret query parameters' values replaced. */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  let hidden = false;
  for (const name of SECRET_QUERY_PARAMS) {
    if (params.has(name)) {
      params.set(name, '[redacted]');
      hidden = true;
    }
  }
  return hidden ? `${url.slice(0, query)}?${params.toString()}` : url;
}

/**
 * One line per request, written when it completes: id (the logger's reqId), method, route (the
 * route's pattern, or the URL without secrets when none matched), status and time in ms. The
 * arrival is logged only at debug. Fastify's default is two info lines, each serializing the
 * request or reply.
 */
export class RequestLineController extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  // The request line says it (status 404, the URL without secrets); Fastify's own line would
  // write the raw URL, query string included.
  override routeNotFound() {
    return;
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const line = {
      method: request.method,
      route: request.routeOptions.url ?? loggableUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}

declare module 'sonic-boom' {
  // sonic-boom's types describe its text mode only: in buffer mode `write` takes a Buffer, and
  // `destroyed` is its own flag, set by destroy() or a failed fd.
  interface SonicBoom {
    write(line: Buffer): boolean;
    readonly destroyed: boolean;
  }
}

/** Log lines wait in memory until this much is buffered, or the next flush below. */
const LOG_BUFFER_BYTES = 8192;
/** The longest a line waits before it is written. */
const LOG_FLUSH_MS = 1000;

/**
 * An asynchronous, buffered log destination on `fd`: a line costs an encoding into a pooled
 * buffer and an append; the buffers are written (in the background) once 8 KiB wait, and at least
 * once a second: one write call per 50 lines or so instead of one per line. Lines are kept as
 * buffers (sonic-boom's buffer mode): in its text mode every line measured the UTF-8 length of
 * all the text waiting before it, several µs a line on a busy server
 * (docs/decisions/0007-request-log-lines.md has what each costs). pino flushes the rest
 * synchronously when the process exits, which `listen`'s shutdown ends with.
 */
export function bufferedDestination(fd: number) {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    contentMode: 'buffer',
  });
  const writeBuffer: (line: Buffer) => boolean = destination.write.bind(destination);
  destination.write = (line: string | Buffer) =>
    writeBuffer(typeof line === 'string' ? Buffer.from(line) : line);
  // Destroyed (at shutdown, or its fd failed) before its 'close' arrives: nothing to flush then,
  // and sonic-boom throws on a flush of a destroyed stream.
  const flushing = setInterval(() => {
    if (!destination.destroyed) destination.flush();
  }, LOG_FLUSH_MS).unref();
  destination.once('close', () => clearInterval(flushing));
  return destination;
}

let stdout: pino.DestinationStream | undefined;
/** Logs go to stdout through one buffered destination per process. */
export const asyncStdout = () => (stdout ??= bufferedDestination(1));
