import { Client } from 'pg';
import { startControlledPostgres } from './controlled-postgres';

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('startControlledPostgres', () => {
  it('runs a PostgreSQL of its own that the test can stop and start again, keeping its data', async () => {
    const pg = await startControlledPostgres();
    try {
      expect(new URL(pg.url).port).not.toBe('5432');
      const client = new Client({ connectionString: pg.url });
      await client.connect();
      await client.query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)');
      await client.end();
      await pg.stop();
      expect(await answers(pg.url)).toBe(false);
      await pg.start();
      const again = new Client({ connectionString: pg.url });
      await again.connect();
      expect((await again.query('SELECT n FROM kept')).rows).toEqual([{ n: 1 }]);
      await again.end();
    } finally {
      await pg.close();
    }
    expect(await answers(pg.url)).toBe(false);
  }, 60_000);
});
