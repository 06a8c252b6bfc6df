import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
// The `hide` schema keyword (the route stays out of the OpenAPI docs).
import type {} from '@fastify/swagger';
import { createError, sendProblem } from '@platform/errors';
import { Histogram, type Registry } from 'prom-client';
import { bearerMatches } from './bearer';
import { metricsExposure, type MetricsConfig } from './metrics-env';

export const MetricsTokenError = createError(
  'METRICS_TOKEN_INVALID',
  '/metrics needs Authorization: Bearer and the metrics token',
  401,
);

export interface MetricsPluginOptions {
  registry: Registry;
  config: MetricsConfig;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's own metrics listener, when METRICS_PORT asks for one (tests read its port). */
    metricsAddress: () => AddressInfo | null;
  }
}

/** One label for every request no route matched: raw URLs would make the series unbounded. */
const UNMATCHED = 'unmatched';

async function metricsPlugin(app: FastifyInstance, options: MetricsPluginOptions) {
  const { registry, config } = options;
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with how long the response took',
    labelNames: ['route', 'method', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.is404 ? UNMATCHED : (request.routeOptions.url ?? UNMATCHED);
    requests.observe(
      { route, method: request.method, status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
  });

  const exposure = metricsExposure(config);
  const authorized = (header: string | undefined) =>
    !config.METRICS_TOKEN || bearerMatches(header, config.METRICS_TOKEN);

  if (exposure === 'public-port') {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      // Sent here, not thrown: this route is registered before the service's error handler.
      if (!authorized(request.headers.authorization)) {
        return sendProblem(new MetricsTokenError(), request, reply);
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  }

  let server: Server | null = null;
  app.decorate('metricsAddress', () => (server?.address() as AddressInfo | null) ?? null);
  if (exposure !== 'own-port') return;
  server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404).end();
    } else if (!authorized(request.headers.authorization)) {
      response.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    } else {
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics collection failed');
          response.writeHead(500).end();
        },
      );
    }
  });
  const listener = server;
  // Listening on ready (not on the app's listen) makes a taken port fail the start-up at once.
  app.addHook('onReady', () => {
    return new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(config.METRICS_PORT, '0.0.0.0', () => {
        listener.off('error', reject);
        resolve();
      });
    });
  });
  app.addHook('onClose', async () => {
    if (!listener.listening) return;
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });
}

/**
 * The HTTP request histogram of every route (registered before the routes, it sees them all)
 * and `/metrics` where the configuration puts it: on its own port, or on the public one behind
 * the token, or nowhere.
 */
export const metrics = fp(metricsPlugin, { name: 'metrics' });
