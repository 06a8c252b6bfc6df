import type { FastifyInstance } from 'fastify';

/**
 * Listens on all interfaces and closes gracefully on SIGTERM/SIGINT: stops accepting,
 * lets in-flight requests finish, runs every onClose hook (pools), then exits 0.
 */
export async function listen(app: FastifyInstance, port: number): Promise<void> {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  await app.listen({ host: '0.0.0.0', port });
}
