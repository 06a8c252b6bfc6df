import type { FastifyInstance } from 'fastify';

/** Longer than any request may take (database statements time out well before), shorter than Kubernetes' 30 s grace. */
const SHUTDOWN_DEADLINE_MS = 25_000;

/**
 * Listens on all interfaces and closes gracefully on SIGTERM/SIGINT: stops accepting,
 * lets in-flight requests finish, runs every onClose hook (pools), then exits 0. A request
 * still running at the deadline has its connection closed, so shutdown always ends.
 */
export async function listen(
  app: FastifyInstance,
  port: number,
  { shutdownDeadlineMs = SHUTDOWN_DEADLINE_MS }: { shutdownDeadlineMs?: number } = {},
): Promise<void> {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      app.log.error({ shutdownDeadlineMs }, 'requests still running at the shutdown deadline');
      app.server.closeAllConnections();
    }, shutdownDeadlineMs);
    deadline.unref();
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

/**
 * A service's main: loads its config, builds its app and listens; a failure to start is said in
 * one line on stderr, with exit code 1.
 */
export function startService<Config extends { PORT: number }>(
  name: string,
  loadConfig: () => Config,
  buildApp: (config: Config) => Promise<FastifyInstance>,
): void {
  const main = async () => {
    const config = loadConfig();
    await listen(await buildApp(config), config.PORT);
  };
  main().catch((error: unknown) => {
    process.stderr.write(
      `${name} failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
