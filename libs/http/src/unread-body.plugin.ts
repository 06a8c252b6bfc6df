import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A response sent before its request's body has all arrived closes its connection: one refused
 * by a hook before the body was read (the session proxy streams bodies, so it refuses with the
 * body unread), a 413 for a declared length, a route that reads no body. On a kept-alive
 * connection Node would read and discard the rest for as long as the client keeps sending.
 */
export const unreadBodyPlugin = fp(
  async (app: FastifyInstance) => {
    // A callback hook: it runs on every response. `complete` is Node's; inject's requests lack it.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.raw.complete === false) reply.header('connection', 'close');
      done(null, payload);
    });
  },
  { name: 'unread-body' },
);
