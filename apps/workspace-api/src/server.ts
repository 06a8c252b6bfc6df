import { compileWasmCompactly } from '@platform/db';
import { startService } from '@platform/http';
import { buildApp } from './app';
import { loadConfig, type Config } from './config';

compileWasmCompactly();

/** The app, its sessions listener already listening on SESSION_PORT (a port taken fails the start). */
async function buildServer(config: Config) {
  const app = await buildApp(config);
  if (config.SESSION_PORT === 0) {
    app.log.warn(
      'SESSION_PORT is 0: sessions are served on the console’s origin, where a session’s page can act as whoever opens it on the console. Tests only.',
    );
    return app;
  }
  await app.ready();
  await new Promise<void>((done, fail) =>
    app.sessionsServer.once('error', fail).listen(config.SESSION_PORT, '0.0.0.0', done),
  );
  app.log.info({ port: config.SESSION_PORT }, 'sessions listening');
  return app;
}

startService('workspace-api', () => loadConfig(), buildServer);
