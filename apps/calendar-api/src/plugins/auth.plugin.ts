import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { TokenInvalidError, TokenMissingError } from '../errors';
import type { TokensService } from '../tokens/tokens.service';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The throttle rule counting wrong tokens per client address. */
export const BEARER_THROTTLE = 'bearer-token';
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route authenticates its requests itself (Slack signs its events). */
    auth?: boolean;
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
 * reads too with CALENDAR_AUTH=all. Runs on request, before the body is even parsed. A route
 * with `config: { auth: false }` is skipped.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, { tokens, mode }: AuthOptions) => {
    if (mode === 'off') return;
    async function authenticate(request: FastifyRequest, reply: FastifyReply) {
      const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
      if (!token) {
        challenge(reply);
        throw new TokenMissingError();
      }
      try {
        // A client that guessed wrong too often is refused before its next guess is checked.
        await app.authThrottle.guard(
          BEARER_THROTTLE,
          request,
          token,
          () => tokens.verify(token),
          (error) => error instanceof TokenInvalidError,
        );
      } catch (error) {
        if (error instanceof TokenInvalidError) challenge(reply, 'invalid_token');
        throw error;
      }
    }
    // Each route that needs a token gets the hook as it is registered; the open reads (most
    // requests) run none, and no request reads `request.routeOptions`, which builds a new object
    // at every read. A callback hook: a route's own hooks run after the instance's, so the input
    // guard has seen the request first.
    app.addHook('onRoute', (route) => {
      if (route.config?.auth === false) return;
      const methods = [route.method].flat();
      if (mode === 'writes' && methods.every((method) => READ_METHODS.has(method))) return;
      const hook = (
        request: FastifyRequest,
        reply: FastifyReply,
        done: (error?: Error) => void,
      ) => {
        if (mode === 'writes' && READ_METHODS.has(request.method)) return done();
        authenticate(request, reply).then(() => done(), done);
      };
      route.onRequest = [hook, ...[route.onRequest ?? []].flat()];
    });
  },
  { name: 'auth', dependencies: ['auth-throttle'] },
);
