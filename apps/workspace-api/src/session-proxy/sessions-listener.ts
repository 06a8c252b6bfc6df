import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OriginServesSessionsError, OriginServesConsoleError } from '../errors';

/** Requests that came in through the sessions listener (SESSION_PORT). */
const sessionsSide = new WeakSet<IncomingMessage>();

/** Whether a request came in through the sessions listener. */
export const onSessionsListener = (raw: IncomingMessage): boolean => sessionsSide.has(raw);

const EVENTS = ['request', 'upgrade', 'clientError', 'checkContinue'] as const;

/**
 * A second HTTP server in front of the same app: what comes in through it is marked as the
 * sessions side and handled by the app's own listeners (routes, WebSocket upgrades, client
 * errors). Its timeouts are the app server's. Listening is the caller's (server.ts, tests).
 */
export function createSessionsServer(app: FastifyInstance): Server {
  const main = app.server;
  const server = createServer({
    requestTimeout: main.requestTimeout,
    headersTimeout: main.headersTimeout,
    keepAliveTimeout: main.keepAliveTimeout,
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, main.requestTimeout / 4)),
  });
  for (const event of EVENTS) {
    server.on(event, (raw: IncomingMessage, ...rest: unknown[]) => {
      if (event !== 'clientError') sessionsSide.add(raw);
      for (const listener of main.listeners(event)) listener.call(main, raw, ...rest);
    });
  }
  return server;
}

const SESSION_ROUTE = /^\/kasm\//;
const EITHER_SIDE = /^\/(health|metrics)(\/|$)/;

/**
 * Keeps the console and the sessions on origins of their own: through the sessions listener
 * only `/kasm/…` answers (a session's page must not reach the sign-in form, the admin console
 * or the API with a victim's cookies, nor place a service worker over them), and the console's
 * listener serves no session. Health and metrics answer on both, for probes. The route the
 * request matched decides, not its raw path: `/%6Basm/…` reaches the proxy too.
 */
export function originGuard(separate: boolean) {
  return async (request: FastifyRequest) => {
    const route = request.routeOptions.url ?? '';
    if (!separate || EITHER_SIDE.test(route)) return;
    const session = SESSION_ROUTE.test(route);
    if (onSessionsListener(request.raw)) {
      if (!session) throw new OriginServesSessionsError();
    } else if (session) {
      throw new OriginServesConsoleError();
    }
  };
}
