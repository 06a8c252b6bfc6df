import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { fastifyOptions, validatorCompiler } from './fastify-options';
import { healthRoutes } from './health.routes';
import { docsPlugin } from './docs.plugin';

async function buildTestApp(
  checkDatabase: () => Promise<unknown>,
  logStream?: NodeJS.WritableStream,
) {
  const app = Fastify(
    fastifyOptions({ logLevel: logStream ? 'info' : 'silent', bodyLimitBytes: 1024, logStream }),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler((error: { validation?: unknown[] }, _request, reply) =>
    reply.status(400).send({ count: error.validation?.length }),
  );
  await app.register(docsPlugin, { title: 't', description: 'd', version: '1' });
  await app.register(healthRoutes, { checkDatabase });
  app.post(
    '/echo',
    {
      schema: {
        body: Type.Object({ flag: Type.Boolean() }),
        querystring: Type.Object({ n: Type.Integer() }),
      },
    },
    async (request) => ({ body: request.body, query: request.query }),
  );
  app.post(
    '/two',
    { schema: { body: Type.Object({ a: Type.Boolean(), b: Type.Integer() }) } },
    async () => ({}),
  );
  return app;
}

describe('health routes', () => {
  it('answers live regardless of the database, ready only when it answers', async () => {
    const down = await buildTestApp(() => Promise.reject(new Error('down')));
    expect((await down.inject({ url: '/health/live' })).statusCode).toBe(200);
    const ready = await down.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'unreachable' } });
    const up = await buildTestApp(() => Promise.resolve());
    expect((await up.inject({ url: '/health/ready' })).json()).toEqual({
      status: 'ok',
      checks: { database: 'ok' },
    });
  });
});

describe('fastifyOptions and validatorCompiler', () => {
  it('coerces query strings but never JSON bodies', async () => {
    const app = await buildTestApp(() => Promise.resolve());
    const ok = await app.inject({ method: 'POST', url: '/echo?n=3', payload: { flag: true } });
    expect(ok.json()).toEqual({ body: { flag: true }, query: { n: 3 } });
    const bad = await app.inject({ method: 'POST', url: '/echo?n=3', payload: { flag: 'true' } });
    expect(bad.statusCode).toBe(400);
  });

  it('reports every validation problem of a body at once', async () => {
    const app = await buildTestApp(() => Promise.resolve());
    const res = await app.inject({
      method: 'POST',
      url: '/echo?n=1',
      payload: { flag: 'x', other: 1 },
    });
    expect(res.json()).toEqual({ count: 1 });
    const two = await app.inject({ method: 'POST', url: '/two', payload: { a: 'x', b: 'y' } });
    expect(two.json()).toEqual({ count: 2 });
  });

  it('redacts credentials from anything that logs headers or bodies', async () => {
    let logs = '';
    const stream = new PassThrough();
    stream.on('data', (c: Buffer) => (logs += c.toString()));
    const app = await buildTestApp(() => Promise.resolve(), stream);
    app.addHook('preHandler', async (request) => {
      request.log.info({ headers: request.headers, body: request.body }, 'explicitly logged');
    });
    await app.inject({
      method: 'POST',
      url: '/echo?n=1',
      headers: { authorization: 'Bearer s3cr3t', 'api-key-secret': 'hush' },
      payload: {
        flag: true,
        password: 'pw-123456',
        api_key_secret: 'k-secret',
        target_user: { password: 'tu-secret' },
      },
    });
    expect(logs).toContain('[redacted]');
    expect(logs).toContain('explicitly logged');
    expect(logs).not.toMatch(/s3cr3t|hush|pw-123456|k-secret|tu-secret/);
  });

  it('logs one line per request at info: id, method, route, status and time', async () => {
    let logs = '';
    const stream = new PassThrough();
    stream.on('data', (c: Buffer) => (logs += c.toString()));
    const app = await buildTestApp(() => Promise.resolve(), stream);
    await app.inject({ method: 'POST', url: '/echo?n=1', payload: { flag: true } });
    await app.inject({ method: 'GET', url: '/nowhere?token=hidden-token&x=1' });
    const lines = logs
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      reqId: expect.any(String),
      method: 'POST',
      route: '/echo',
      status: 200,
      ms: expect.any(Number),
      msg: 'request',
    });
    expect(lines[0]).not.toHaveProperty('req');
    expect(lines[1]).toMatchObject({ route: '/nowhere?token=%5Bredacted%5D&x=1', status: 404 });
    expect(logs).not.toContain('hidden-token');
  });

  it('logs arrivals too at debug', async () => {
    let logs = '';
    const stream = new PassThrough();
    stream.on('data', (c: Buffer) => (logs += c.toString()));
    const app = Fastify(
      fastifyOptions({ logLevel: 'debug', bodyLimitBytes: 1024, logStream: stream }),
    );
    app.get('/hello', async () => 'hi');
    await app.inject({ url: '/hello?kasm_token=t0k3n' });
    expect(logs).toContain('incoming request');
    expect(logs).toContain('kasm_token=%5Bredacted%5D');
    expect(logs).not.toContain('t0k3n');
  });

  it('serves the generated OpenAPI document', async () => {
    const app = await buildTestApp(() => Promise.resolve());
    const spec = (await app.inject({ url: '/docs/json' })).json();
    expect(spec.paths['/echo'].post).toBeDefined();
  });
});
