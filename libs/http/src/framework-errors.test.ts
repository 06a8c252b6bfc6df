import net from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { problemDetailsPlugin } from '@platform/errors';
import { fastifyOptions, validatorCompiler } from './fastify-options';
import { securityEnvProblems, type SecurityConfig } from './security-env';
import { parseTrustProxy } from './trust-proxy';

/** A promise and its resolver: the test waits on events instead of guessing how long they take. */
function signal() {
  let resolve!: () => void;
  const happened = new Promise<void>((r) => (resolve = r));
  return { happened, resolve };
}
let slowArrived = signal();
let slowReleased = signal();

async function buildApp(): Promise<FastifyInstance> {
  const app = Fastify({
    ...fastifyOptions({ logLevel: 'silent', bodyLimitBytes: 1024 }),
    routerOptions: { maxParamLength: 50 },
  });
  app.setValidatorCompiler(validatorCompiler);
  await app.register(problemDetailsPlugin);
  app.get('/items/:name', async (request) => request.params);
  app.get('/slow', async () => {
    slowArrived.resolve();
    await slowReleased.happened;
    return { done: true };
  });
  return app;
}

/** Sends raw bytes and answers the raw response (the parser's errors never reach inject). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let response = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    socket.on('close', () => resolve(response));
    socket.on('error', reject);
  });
}

const problemOf = (response: string) =>
  JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe("Fastify's framework errors", () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await buildApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('answers a path parameter over maxParamLength with a 414 problem', async () => {
    const res = await app.inject({ method: 'GET', url: `/items/${'x'.repeat(51)}` });
    expect(res.statusCode).toBe(414);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 414, code: 'URI_TOO_LONG', title: 'URI Too Long' });
  });

  it('answers a badly encoded path with a 400 problem', async () => {
    const res = await app.inject({ method: 'GET', url: '/items/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_URL' });
  });

  it('answers headers over the size limit with a 431 problem', async () => {
    const response = await raw(
      port,
      `GET /items/a HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 431 /);
    expect(response).toContain('Content-Type: application/problem+json');
    expect(problemOf(response)).toMatchObject({ status: 431, code: 'HEADERS_TOO_LARGE' });
  });

  it('answers a request that is not HTTP with a 400 problem', async () => {
    const response = await raw(port, 'HELLO THERE\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(problemOf(response)).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
  });
});

describe('closing', () => {
  it('finishes requests in flight, closing their connections, and refuses new ones with a 503 problem', async () => {
    slowArrived = signal();
    slowReleased = signal();
    const closing = signal();
    const app = await buildApp();
    // After the error handler's own preClose hook: the app refuses new requests from here on.
    app.addHook('preClose', async () => closing.resolve());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const inFlight = fetch(`http://127.0.0.1:${port}/slow`).then((r) => ({
      status: r.status,
      connection: r.headers.get('connection'),
    }));
    await slowArrived.happened;
    // A connection opened before the close, whose request arrives during it.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let during = '';
    socket.on('data', (chunk: Buffer) => (during += chunk.toString()));
    const started = Date.now();
    const closed = app.close();
    await closing.happened;
    const answered = new Promise((resolve) => socket.once('data', resolve));
    socket.write('GET /items/a HTTP/1.1\r\nHost: x\r\n\r\n');
    await answered;
    slowReleased.resolve();
    await closed;
    // A kept-alive connection would otherwise hold the close for keepAliveTimeout (72 s).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await inFlight).toEqual({ status: 200, connection: 'close' });
    expect(during).toMatch(/^HTTP\/1\.1 503 /);
    expect(during).toMatch(/content-type: application\/problem\+json/i);
    expect(problemOf(during)).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
  });
});

describe('parseTrustProxy', () => {
  it.each([
    ['', false],
    ['false', false],
    ['TRUE', true],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads %p', (text, expected) => {
    expect(parseTrustProxy(text)).toEqual(expected);
  });

  it.each(['2', 'proxy.internal', '10.0.0.0/40'])('refuses %p', (text) => {
    expect(() => parseTrustProxy(text)).toThrow(`"${text}" is not true, false`);
  });
});

describe('securityEnvProblems', () => {
  const base: SecurityConfig = {
    TRUST_PROXY: 'false',
    REDIS_URL: '',
    RATE_LIMIT_KEY_PREFIX: 'svc:',
    AUTH_FAILURE_LIMIT: 20,
    AUTH_FAILURE_ADDRESS_LIMIT: 200,
    AUTH_FAILURE_WINDOW_SECONDS: 300,
    OUTBOUND_ALLOW_PRIVATE: false,
    OUTBOUND_ALLOWLIST: '',
    OUTBOUND_MAX_REDIRECTS: 3,
  };
  it('names each key whose value cannot be read', () => {
    expect(securityEnvProblems(base)).toEqual([]);
    expect(securityEnvProblems({ ...base, TRUST_PROXY: 'yes', OUTBOUND_ALLOWLIST: 'a b' })).toEqual(
      [
        '  TRUST_PROXY: "yes" is not true, false, an address, a CIDR range, loopback, linklocal or uniquelocal',
        '  OUTBOUND_ALLOWLIST: "a b" is neither an address, a CIDR range nor a host name',
      ],
    );
  });
});
