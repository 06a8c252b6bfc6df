import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { toProblem } from './to-problem';

const RETRY_AFTER_SECONDS = 5;

/** The one error handler of every service: everything leaves as problem+json. */
export const problemDetailsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const body = toProblem(error);
      if (body.status >= 500) {
        request.log.error({ err: error }, 'request failed');
      } else {
        request.log.info({ code: body.code, status: body.status }, body.detail);
      }
      if (body.status === 503) reply.header('retry-after', RETRY_AFTER_SECONDS);
      return reply.status(body.status).type('application/problem+json').send(body);
    });

    app.setNotFoundHandler((request, reply) => {
      const body = toProblem({
        statusCode: 404,
        code: 'ROUTE_NOT_FOUND',
        message: `No route ${request.method} ${request.url.split('?')[0]}`,
      });
      return reply.status(404).type('application/problem+json').send(body);
    });
  },
  { name: 'problem-details' },
);
