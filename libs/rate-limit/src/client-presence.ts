import type { FastifyRequest } from 'fastify';

/**
 * A signal aborted when the client's connection closes before the answer, and `done` to stop
 * listening. Not `request.signal`: Fastify aborts that once the request's body has been read.
 */
export function whileClientWaits(request: FastifyRequest): {
  signal: AbortSignal;
  done: () => void;
} {
  const controller = new AbortController();
  const socket = request.raw.socket as FastifyRequest['raw']['socket'] | undefined;
  // app.inject's requests have no real connection to lose.
  if (!socket || typeof socket.once !== 'function')
    return { signal: controller.signal, done: () => undefined };
  const abort = () => controller.abort();
  if (socket.destroyed) abort();
  else socket.once('close', abort);
  return { signal: controller.signal, done: () => socket.off('close', abort) };
}
