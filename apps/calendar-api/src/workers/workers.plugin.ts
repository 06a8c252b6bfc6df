import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface BackgroundWorker {
  /** One round by hand (tests, or a CLI): answers how many items it handled. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
  wake(): void;
}

export interface Workers {
  dispatcher: BackgroundWorker;
  slackInbox: BackgroundWorker;
  scheduler: BackgroundWorker;
}

declare module 'fastify' {
  interface FastifyInstance {
    workers: Workers;
  }
}

export interface WorkersOptions {
  workers: Workers;
  /** The ones that run in this process; the others only run when called. */
  enabled: (keyof Workers)[];
}

/**
 * The background workers' lifecycle: started when the app is ready (listen, or the first
 * inject), stopped on close before the database closes: a round in progress finishes, and
 * deliveries in flight are handed back.
 */
export const workersPlugin = fp(
  async (app: FastifyInstance, { workers, enabled }: WorkersOptions) => {
    app.decorate('workers', workers);
    app.addHook('onReady', async () => {
      for (const name of enabled) workers[name].start();
    });
    // Registered after the database plugin, so this runs before the pool closes.
    app.addHook('onClose', async () => {
      await Promise.all(Object.values(workers).map((worker: BackgroundWorker) => worker.stop()));
    });
  },
  { name: 'workers', dependencies: ['database'] },
);
