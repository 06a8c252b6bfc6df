import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** How long the rest of an unread body is still read (and dropped) after the response. */
const LINGER_MS = 2000;

/**
 * A response sent before its request's body has all arrived ends its connection soon after: one
 * refused by a hook before the body was read (the session proxy streams bodies, so it refuses
 * with the body unread), a 413 for a declared length, a route that reads no body. Node would
 * otherwise read and discard the rest for as long as the client keeps sending. Not at once: a
 * socket closed with unread bytes is reset, and the reset can cost the client the response.
 */
export const unreadBodyPlugin = fp(
  async (app: FastifyInstance) => {
    // A callback hook: it runs on every response. `complete` is Node's; inject's requests lack it.
    app.addHook('onResponse', (request, _reply, done) => {
      const { raw } = request;
      if (raw.complete === false) {
        const socket = raw.socket;
        const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
        const stop = () => {
          clearTimeout(timer);
          raw.off('end', stop);
          socket.off('close', stop);
        };
        raw.once('end', stop);
        socket.once('close', stop);
      }
      done();
    });
  },
  { name: 'unread-body' },
);
