import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { databasePlugin, type DatabasePluginOptions } from '@platform/db';
import { problemDetailsPlugin } from '@platform/errors';
import { docsPlugin, type DocsOptions } from './docs.plugin';
import { fastifyOptions, validatorCompiler } from './fastify-options';
import { healthRoutes } from './health.routes';
import { inputGuardPlugin } from './input-guard.plugin';
import { serializerCompiler } from './response-serializer';
import { parseTrustProxy } from './trust-proxy';
import { unreadBodyPlugin } from './unread-body.plugin';

/** The HTTP settings every service's config holds. */
export interface ServiceHttpConfig {
  LOG_LEVEL: string;
  BODY_LIMIT_BYTES: number;
  REQUEST_TIMEOUT_MS: number;
  TRUST_PROXY: string;
}

/** What every service's `buildApp` overrides accept. */
export interface ServiceAppOverrides {
  /** Where log lines go (tests capture them). */
  logStream?: NodeJS.WritableStream;
}

/**
 * A service's Fastify instance with the shared logging, limits, trust, TypeBox validation and
 * response serialization, nothing registered yet and not listening.
 */
export function createServiceApp(
  config: ServiceHttpConfig,
  overrides: ServiceAppOverrides,
  options: Pick<FastifyServerOptions, 'routerOptions'> = {},
) {
  const app = Fastify({
    ...fastifyOptions({
      logLevel: config.LOG_LEVEL,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
      logStream: overrides.logStream,
      trustProxy: parseTrustProxy(config.TRUST_PROXY),
    }),
    ...options,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

export interface ServiceFoundationOptions {
  /** The service's mapping of its database's failures to its errors. */
  mapError?: (error: unknown) => unknown;
  database: DatabasePluginOptions;
  docs: DocsOptions;
}

/**
 * What every service registers before its own routes: problem+json errors, the input guard, the
 * closing of connections whose body went unread, the
 * database's lifecycle, the OpenAPI docs (before any route, so that they see every one) and the
 * health routes.
 */
export const serviceFoundation = fp(
  async (app: FastifyInstance, options: ServiceFoundationOptions) => {
    await app.register(problemDetailsPlugin, { mapError: options.mapError });
    await app.register(inputGuardPlugin);
    await app.register(unreadBodyPlugin);
    await app.register(databasePlugin, options.database);
    await app.register(docsPlugin, options.docs);
    await app.register(healthRoutes, { checkDatabase: options.database.ping });
  },
  { name: 'service-foundation' },
);
