import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { databasePlugin } from '@platform/db';
import { problemDetailsPlugin } from '@platform/errors';
import { docsPlugin, fastifyOptions, healthRoutes, validatorCompiler } from '@platform/http';
import type { Config } from './config';
import { createDb, type Db } from './db';

export interface AppOverrides {
  db?: Db;
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app = Fastify(
    fastifyOptions({ logLevel: config.LOG_LEVEL, bodyLimitBytes: config.BODY_LIMIT_BYTES, logStream: overrides.logStream }),
  ).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);

  const db = overrides.db ?? createDb(config);

  await app.register(problemDetailsPlugin);
  await app.register(databasePlugin, { ping: () => db.$queryRaw`SELECT 1`, close: () => db.$disconnect() });
  await app.register(docsPlugin, {
    title: 'calendar-api',
    description: 'Turns weekly-plan chat messages into calendar events and serves them.',
    version: '0.1.0',
  });
  await app.register(healthRoutes, { checkDatabase: () => app.database.ping() });

  return app;
}
