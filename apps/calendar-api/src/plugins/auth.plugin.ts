import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { TokenInvalidError, TokenMissingError, TokenReadOnlyError } from '../errors';
import { type RouteAccess, scopeAllows, type TokensService } from '../tokens';
import { routeAccess } from './route-access';

/** The throttle rule counting wrong tokens per client address. */
export const BEARER_THROTTLE = 'bearer-token';
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route authenticates its requests itself (Slack signs its events). */
    auth?: boolean;
    /**
     * What the route needs of a token; see routeAccess: anything but a read needs write
     * whatever is declared, and a read route may ask for write.
     */
    access?: RouteAccess;
    /**
     * true: a read that needs a token even where reads are open (CALENDAR_AUTH=writes), because
     * it shows what the public may not see (the delivery log names internal hosts).
     */
    tokenRequired?: boolean;
  }
}

export interface AuthOptions {
  tokens: TokensService;
  mode: Config['CALENDAR_AUTH'];
}

function challenge(reply: FastifyReply, error?: string) {
  reply.header(
    'www-authenticate',
    `Bearer realm="calendar-api"${error ? `, error="${error}"` : ''}`,
  );
}

/**
 * Bearer-token auth for the routes registered beside it: writes always (unless CALENDAR_AUTH=off),
 * reads too with CALENDAR_AUTH=all. A token's scope must allow the route's access (a read
 * token gets 403 on writes). Runs on request, before the body is even parsed. A route with
 * `config: { auth: false }` is skipped.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, { tokens, mode }: AuthOptions) => {
    async function authenticate(request: FastifyRequest, reply: FastifyReply, needs: RouteAccess) {
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      if (!token) {
        challenge(reply);
        throw new TokenMissingError();
      }
      let scope: string;
      try {
        // A client that guessed wrong too often is refused before its next guess is checked.
        ({ scope } = await app.authThrottle.guard(
          BEARER_THROTTLE,
          request,
          token,
          () => tokens.verify(token),
          (error) => error instanceof TokenInvalidError,
        ));
      } catch (error) {
        if (error instanceof TokenInvalidError) challenge(reply, 'invalid_token');
        throw error;
      }
      if (!scopeAllows(scope, needs)) {
        challenge(reply, 'insufficient_scope');
        throw new TokenReadOnlyError();
      }
    }
    // Each route that needs a token gets the hook as it is registered; the open reads (most
    // requests) run none, and no request reads `request.routeOptions`, which builds a new object
    // at every read. A callback hook: a route's own hooks run after the instance's, so the input
    // guard has seen the request first.
    app.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      // Computed even with auth off, so a route declared wrongly fails in every mode.
      const access = new Map(methods.map((m) => [m, routeAccess(m, route.config?.access)]));
      if (mode === 'off' || route.config?.auth === false) return;
      const open = (method: string) =>
        mode === 'writes' && access.get(method) === 'read' && route.config?.tokenRequired !== true;
      if (methods.every(open)) return;
      const hook = (
        request: FastifyRequest,
        reply: FastifyReply,
        done: (error?: Error) => void,
      ) => {
        if (open(request.method)) return done();
        const needs = access.get(request.method) ?? routeAccess(request.method, undefined);
        authenticate(request, reply, needs).then(() => done(), done);
      };
      route.onRequest = [hook, ...[route.onRequest ?? []].flat()];
    });
  },
  { name: 'auth', dependencies: ['auth-throttle'] },
);
