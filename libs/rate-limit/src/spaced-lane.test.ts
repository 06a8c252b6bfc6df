import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { problemDetailsPlugin } from '@platform/errors';
import { fastifyOptions } from '@platform/http';
import { rawJsonPost, waitFor } from '@platform/testing';
import { authThrottlePlugin } from './auth-throttle.plugin';
import { whileClientWaits } from './client-presence';

/**
 * An app whose /login checks `password` (right when "right") for the one account "ada" across
 * addresses, allowing 2 failures per minute, then slowed to one check per `intervalMs`. Each
 * check notes its password in `checked`; each attempt, once in the throttle's hands, in `entered`.
 */
async function laneApp(intervalMs: number, checked: string[], entered: string[] = []) {
  const app = Fastify(fastifyOptions({ logLevel: 'silent', bodyLimitBytes: 1024 }));
  await app.register(problemDetailsPlugin);
  await app.register(authThrottlePlugin, {
    redisUrl: '',
    keyPrefix: 'x:',
    rules: {
      account: {
        limit: 2,
        windowSeconds: 60,
        what: 'failed logins',
        addressLimit: Infinity,
        pastLimitIntervalMs: intervalMs,
      },
    },
  });
  app.post('/login', async (request) => {
    const { password } = request.body as { password: string };
    const client = whileClientWaits(request);
    const guarded = app.authThrottle
      .guardAcrossAddresses(
        'account',
        request,
        'ada',
        async () => {
          checked.push(password);
          if (password !== 'right') throw Object.assign(new Error('wrong'), { statusCode: 401 });
          return { ok: true };
        },
        () => true,
        client.signal,
      )
      .finally(client.done);
    entered.push(password);
    return guarded;
  });
  await app.ready();
  return app;
}

describe('guardAcrossAddresses past the limit with pastLimitIntervalMs', () => {
  const INTERVAL = 300;
  let app: FastifyInstance;
  let checked: string[];
  beforeAll(async () => {
    checked = [];
    app = await laneApp(INTERVAL, checked);
  });
  afterAll(() => app.close());
  const login = (password: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/login', payload: { password }, remoteAddress });

  it('checks every attempt, right ones let in, one at a time at least pastLimitIntervalMs apart', async () => {
    checked.length = 0;
    expect((await login('wrong', '192.0.2.1')).statusCode).toBe(401);
    expect((await login('wrong', '192.0.2.2')).statusCode).toBe(401);
    const start = Date.now();
    const finished: number[] = [];
    const attempts = ['wrong', 'wrong', 'wrong', 'right'].map((password, i) =>
      login(password, `198.51.100.${i + 1}`).then((res) => {
        finished.push(Date.now() - start);
        return res.statusCode;
      }),
    );
    expect(await Promise.all(attempts)).toEqual([401, 401, 401, 200]);
    expect(checked).toHaveLength(6);
    // The k-th attempt past the limit cannot start before k intervals have passed.
    finished.forEach((at, k) => expect(at).toBeGreaterThanOrEqual(k * INTERVAL - 5));
  });

  it('lets one address have one attempt in the lane at a time; a second is refused with 429', async () => {
    const [first, second] = await Promise.all([
      login('wrong', '198.51.100.9'),
      login('wrong', '198.51.100.9'),
      login('wrong', '198.51.100.10'),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([401, 429]);
    const refused = first.statusCode === 429 ? first : second;
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
  });
});

describe('a login waiting in the lane whose client has gone', () => {
  it('leaves the lane unchecked; the one behind it is checked in its place', async () => {
    const checked: string[] = [];
    const entered: string[] = [];
    const app = await laneApp(1500, checked, entered);
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as net.AddressInfo;
      const send = (password: string, localAddress: string) =>
        rawJsonPost(port, localAddress, '/login', { password });
      for (const address of ['127.0.0.2', '127.0.0.3'])
        expect(await send('wrong', address).response).toMatch(/^HTTP\/1\.1 401/);
      // Past the budget: the first check runs at once, the next waits 1.5 s for its turn.
      expect(await send('first', '127.0.0.4').response).toMatch(/^HTTP\/1\.1 401/);
      const gone = send('gone', '127.0.0.5');
      // In the lane from the moment the throttle has it (a refusal enters it synchronously).
      await waitFor(async () => expect(entered).toContain('gone'), 30_000);
      gone.socket.destroy();
      expect(await send('right', '127.0.0.6').response).toMatch(/^HTTP\/1\.1 200/);
      expect(checked).toEqual(['wrong', 'wrong', 'first', 'right']);
    } finally {
      await app.close();
    }
  });
});
