import net from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { problemDetailsPlugin } from '@platform/errors';
import { fastifyOptions } from './fastify-options';
import { unreadBodyPlugin } from './unread-body.plugin';

const REQUEST_TIMEOUT_MS = 1000;

async function buildApp(): Promise<FastifyInstance> {
  const app = Fastify(
    fastifyOptions({
      logLevel: 'silent',
      bodyLimitBytes: 1024,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    }),
  );
  await app.register(problemDetailsPlugin);
  await app.register(unreadBodyPlugin);
  // As the session proxy does: the body stays a stream, and a hook may refuse before reading it.
  await app.register(async (scope) => {
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post('/streamed/refused', {
      preHandler: async (_request, reply) => reply.code(401).send({ refused: true }),
      handler: async () => ({ never: true }),
    });
    scope.post('/streamed/read', async (request) => {
      const body = request.body as NodeJS.ReadableStream;
      let bytes = 0;
      for await (const chunk of body) bytes += (chunk as Buffer).length;
      return { bytes };
    });
  });
  app.get('/ok', async () => ({ ok: true }));
  return app;
}

interface Trickle {
  /** Everything the server sent. */
  received: () => string;
  /** Resolves with the milliseconds from the first byte sent until the server closed. */
  closed: Promise<number>;
  stop: () => void;
}

/** Sends `head` and then, for as long as the socket stays open, 100 bytes of body every 50 ms. */
function trickle(port: number, head: string): Trickle {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.write(head);
  const timer = setInterval(() => socket.writable && socket.write('x'.repeat(100)), 50);
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve(Date.now() - started);
    }),
  );
  return {
    received: () => received,
    closed,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** Whether `promise` settles within `ms`. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}

const head = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`;

describe('clients that keep sending', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await buildApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('closes the connection of a request refused before its body arrived, instead of reading the rest', async () => {
    const client = trickle(port, head('/streamed/refused', 100_000_000));
    // Far less than the request timeout's checks would take: the close follows the answer.
    const closedSoon = await within(client.closed, 10_000);
    client.stop();
    expect(client.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(closedSoon).toBe(true);
  }, 20_000);

  it('answers 408 and closes a body that takes longer than REQUEST_TIMEOUT_MS to arrive', async () => {
    const client = trickle(port, head('/streamed/read', 100_000_000));
    const closedSoon = await within(client.closed, 20 * REQUEST_TIMEOUT_MS);
    client.stop();
    expect(closedSoon).toBe(true);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(client.received()).toContain('"code":"REQUEST_TIMEOUT"');
  }, 30_000);

  it('keeps the connection of a request whose body all arrived open for the next request', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/streamed/read`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: 'x'.repeat(5000),
    });
    expect(await res.json()).toEqual({ bytes: 5000 });
    expect(res.headers.get('connection')).toBe('keep-alive');
    const ok = await fetch(`http://127.0.0.1:${port}/ok`);
    expect(ok.headers.get('connection')).toBe('keep-alive');
  });
});
