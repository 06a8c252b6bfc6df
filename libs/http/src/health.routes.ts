import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';

export interface HealthOptions {
  /** Resolves when the database answers; rejects otherwise. */
  checkDatabase: () => Promise<unknown>;
}

const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
});

/** `/health/live`: the process answers. `/health/ready`: it can also reach its database. */
export async function healthRoutes(app: FastifyInstance, options: HealthOptions) {
  app.get(
    '/health/live',
    { schema: { tags: ['health'], response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    { schema: { tags: ['health'], response: { 200: HealthSchema, 503: HealthSchema } } },
    async (request, reply) => {
      try {
        await options.checkDatabase();
        return { status: 'ok' as const, checks: { database: 'ok' } };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply
          .status(503)
          .send({ status: 'unavailable' as const, checks: { database: 'unreachable' } });
      }
    },
  );
}
