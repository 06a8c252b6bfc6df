import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface DatabasePluginOptions {
  /** A cheap round trip, e.g. `SELECT 1`. */
  ping: () => Promise<unknown>;
  /** Closes the pool; runs once the server has stopped accepting and drained. */
  close: () => Promise<void>;
}

/** Owns the database client's lifecycle inside the app: readiness ping and pool shutdown. */
export const databasePlugin = fp(
  async (app: FastifyInstance, options: DatabasePluginOptions) => {
    app.addHook('onClose', async () => {
      await options.close();
    });
  },
  { name: 'database' },
);
