import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { UnavailableError } from './common-errors';
import { toProblem } from './to-problem';

const RETRY_AFTER_SECONDS = 5;

/** Seconds a throttled client should wait, when the error says (see `withRetryAfter`). */
function retryAfterOf(error: unknown): number | undefined {
  const seconds = (error as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds)
    ? Math.max(1, Math.ceil(seconds))
    : undefined;
}

/**
 * Renders anything thrown as problem+json: logged in full when it is a server error, sent
 * without internals. Also used for Fastify's framework errors, which bypass the error handler.
 */
export function sendProblem(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const body = toProblem(error);
  if (body.status >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else {
    request.log.info({ code: body.code, status: body.status }, body.detail);
  }
  const retryAfter = retryAfterOf(error) ?? (body.status === 503 ? RETRY_AFTER_SECONDS : undefined);
  if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
  return reply.status(body.status).type('application/problem+json').send(body);
}

/**
 * The one error handler of every service: everything leaves as problem+json. That includes the
 * 503 for a request that arrives on an open connection while the server shuts down (Fastify's
 * own would be plain JSON; `fastifyOptions` turns it off for this). Answers sent while closing
 * also close their connection: a kept-alive one would hold the shutdown for keepAliveTimeout.
 */
export interface ProblemDetailsOptions {
  /** The service's mapping of its database's failures to its errors, applied before rendering. */
  mapError?: (error: unknown) => unknown;
}

export const problemDetailsPlugin = fp(
  async (app: FastifyInstance, { mapError = (error) => error }: ProblemDetailsOptions) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    // Callback hooks: they run on every request, and an async one costs a promise each time.
    app.addHook('onRequest', (_request, _reply, done) => {
      done(closing ? new UnavailableError() : undefined);
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close');
      done(null, payload);
    });

    app.setErrorHandler((error: FastifyError, request, reply) =>
      sendProblem(mapError(error), request, reply),
    );

    // The methods each path answers, so that a known path asked with another method gets a 405.
    const routes: { pattern: RegExp; methods: Set<string> }[] = [];
    app.addHook('onRoute', (route) => {
      const source = `^${route.url
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[^/]+/g, '[^/]+')
        .replace(/\*/g, '.*')}/?$`;
      let entry = routes.find((r) => r.pattern.source === source);
      if (!entry) routes.push((entry = { pattern: new RegExp(source), methods: new Set() }));
      for (const method of [route.method].flat()) entry.methods.add(method);
    });

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0];
      const allowed = new Set(
        routes.filter((r) => r.pattern.test(path)).flatMap((r) => [...r.methods]),
      );
      if (allowed.size > 0) {
        const allow = [...allowed]
          .filter((m) => m !== 'HEAD')
          .sort()
          .join(', ');
        const body = toProblem({
          statusCode: 405,
          code: 'METHOD_NOT_ALLOWED',
          message: `${path} answers ${allow} only, not ${request.method}`,
        });
        return reply.status(405).header('allow', allow).type('application/problem+json').send(body);
      }
      const body = toProblem({
        statusCode: 404,
        code: 'ROUTE_NOT_FOUND',
        message: `No route ${request.method} ${path}`,
      });
      return reply.status(404).type('application/problem+json').send(body);
    });
  },
  { name: 'problem-details' },
);
