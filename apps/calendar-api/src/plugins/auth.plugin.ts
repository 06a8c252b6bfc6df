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
    // A callback hook: the open reads (most requests) then cost no promise.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.auth === false) return done();
      if (mode === 'writes' && READ_METHODS.has(request.method)) return done();
      authenticate(request, reply).then(() => done(), done);
    });
  },
  { name: 'auth', dependencies: ['auth-throttle'] },
);
