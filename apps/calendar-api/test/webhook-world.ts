import { createHarness, type Harness } from './harness';
import { startWebhookServer, type WebhookServer } from './webhook-server';

export interface WebhookWorld {
  h: Harness;
  server: WebhookServer;
}

/** NOTIFY_WEBHOOKS naming each target after the server's path of the same name. */
export const webhooksTo = (server: WebhookServer, ...targets: string[]) =>
  targets.map((target) => `${target}=${server.url(`/${target}`)}`).join(',');

/**
 * A local webhook server and a harness on the environment `env` gives for it, started once for
 * the file and both reset before every test; `use` receives them once they run.
 */
export function useWebhookWorld(
  env: (server: WebhookServer) => Record<string, string>,
  use: (world: WebhookWorld) => void,
): void {
  let world: WebhookWorld | undefined;
  beforeAll(async () => {
    const server = await startWebhookServer();
    world = { server, h: await createHarness(env(server)) };
    use(world);
  });
  afterAll(async () => {
    await world?.h.close();
    await world?.server.close();
  });
  beforeEach(async () => {
    await world?.h.reset();
    world?.server.reset();
  });
}
