import { openServiceDatabase } from './service-database';

/** The readiness check does not need a Prisma client: a bare stand-in keeps the test on the pool. */
const noClient = () => ({
  $disconnect: async () => undefined,
  $transaction: async () => undefined,
});

describe("a service's database", () => {
  it('answers readiness while every pooled connection is busy', async () => {
    const database = openServiceDatabase(
      {
        DATABASE_URL: process.env.TEST_DATABASE_URL as string,
        DATABASE_POOL_MAX: 1,
        DATABASE_TIMEOUT_MS: 1000,
        DATABASE_SCHEMA: 'public',
      },
      noClient,
    );
    const busy = await database.pool.connect();
    try {
      // A request now waits for the pool and gives up; readiness does not queue behind it.
      await expect(database.pool.query('SELECT 1')).rejects.toThrow(/timeout/i);
      await expect(database.ping()).resolves.toBeUndefined();
    } finally {
      busy.release();
      await database.close();
    }
  });
});
