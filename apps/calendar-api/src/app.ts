import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { databasePlugin } from '@platform/db';
import { problemDetailsPlugin } from '@platform/errors';
import { docsPlugin, fastifyOptions, healthRoutes, validatorCompiler } from '@platform/http';
import type { Config } from './config';
import { createDb, type Db } from './db';
import { eventQueriesRoutes } from './events/event-queries.routes';
import { createEventQueriesService } from './events/event-queries.service';
import { eventTitlesRoutes } from './events/event-titles.routes';
import { eventsRoutes } from './events/events.routes';
import { createEventsService } from './events/events.service';
import { messagesRoutes } from './messages/messages.routes';
import { createMessagesService } from './messages/messages.service';
import { authPlugin } from './plugins/auth.plugin';
import { API_PREFIX, SECURITY_SCHEMES } from './routes';
import { createTokensService } from './tokens/tokens.service';

export interface AppOverrides {
  db?: Db;
  /** Where log lines go (tests capture them). */
  logStream?: NodeJS.WritableStream;
  /** The clock behind "today" and "tomorrow" (tests fix it). */
  now?: () => Date;
}

export async function buildApp(
  config: Config,
  overrides: AppOverrides = {},
): Promise<FastifyInstance> {
  const app = Fastify(
    fastifyOptions({
      logLevel: config.LOG_LEVEL,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      logStream: overrides.logStream,
    }),
  ).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);

  const db = overrides.db ?? createDb(config);
  const now = overrides.now ?? (() => new Date());
  const tokens = createTokensService({ db });
  const events = createEventsService({ db });
  const queries = createEventQueriesService({ db, config, now });
  const messages = createMessagesService({ db, config, now });

  await app.register(problemDetailsPlugin);
  await app.register(databasePlugin, {
    ping: () => db.$queryRaw`SELECT 1`,
    close: () => db.$disconnect(),
  });
  await app.register(docsPlugin, {
    title: 'calendar-api',
    description: 'Turns weekly-plan chat messages into calendar events and serves them.',
    version: '0.1.0',
    securitySchemes: SECURITY_SCHEMES,
  });
  await app.register(healthRoutes, { checkDatabase: () => app.database.ping() });

  await app.register(
    async (api) => {
      await api.register(authPlugin, { tokens, mode: config.CALENDAR_AUTH });
      await api.register(messagesRoutes, { messages });
      await api.register(eventsRoutes, { events });
      await api.register(eventTitlesRoutes, { events });
      await api.register(eventQueriesRoutes, { queries });
    },
    { prefix: API_PREFIX },
  );

  return app;
}
