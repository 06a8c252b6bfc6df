import net from 'node:net';
import { Pool } from 'pg';
import { poolConfig } from './pool-config';
import { READ_TIMEOUT_MESSAGE } from './read-timeout-client';

/**
 * A TCP proxy to the test PostgreSQL that can stop passing the server's answers on (`freeze`),
 * as a server that hangs or a network that drops packets would: the connection stays open.
 */
async function startFreezableProxy(target: URL) {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => frozen || client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    freeze: (value: boolean) => (frozen = value),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitFor(check: () => boolean, limitMs = 30_000) {
  const deadline = Date.now() + limitMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe("the pool's read timeout", () => {
  let proxy: Awaited<ReturnType<typeof startFreezableProxy>>;
  let pool: Pool;

  beforeEach(async () => {
    proxy = await startFreezableProxy(new URL(process.env.TEST_DATABASE_URL as string));
    // Read timeout: timeoutMs + 1 s. Generous enough to connect on a loaded machine.
    pool = new Pool(
      poolConfig({ connectionString: proxy.url, maxConnections: 2, timeoutMs: 3000 }),
    );
    pool.on('error', () => undefined);
  });

  afterEach(async () => {
    proxy.freeze(false);
    await pool.end();
    await proxy.close();
  });

  it('answers every form of query as pg does', async () => {
    const promised = await pool.query<{ n: number }>('SELECT $1::int AS n', [7]);
    expect(promised.rows).toEqual([{ n: 7 }]);
    expect(promised.fields.map((f) => f.name)).toEqual(['n']);
    const named = await pool.query({ name: 'two', text: 'SELECT 2 AS n' });
    expect(named.rows).toEqual([{ n: 2 }]);

    const client = await pool.connect();
    try {
      expect((await client.query('SELECT 3 AS n')).rows).toEqual([{ n: 3 }]);
      const viaCallback = await new Promise((resolve, reject) =>
        client.query('SELECT $1::text AS s', ['x'], (error, result) =>
          error ? reject(error) : resolve(result.rows),
        ),
      );
      expect(viaCallback).toEqual([{ s: 'x' }]);
      await expect(client.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    } finally {
      client.release();
    }
  });

  it('fails a query the server does not answer, and the pool drops that connection', async () => {
    await pool.query('SELECT 1');
    proxy.freeze(true);
    await expect(pool.query('SELECT 1')).rejects.toThrow(READ_TIMEOUT_MESSAGE);
    expect(await waitFor(() => pool.totalCount === 0)).toBe(true);

    proxy.freeze(false);
    expect((await pool.query('SELECT 4 AS n')).rows).toEqual([{ n: 4 }]);
  });

  it('fails a checked-out connection’s promised query too (the form transactions use)', async () => {
    const client = await pool.connect();
    try {
      proxy.freeze(true);
      await expect(client.query('SELECT 1')).rejects.toThrow(READ_TIMEOUT_MESSAGE);
    } finally {
      client.release(new Error('abandoned after a read timeout'));
    }
  });
});
