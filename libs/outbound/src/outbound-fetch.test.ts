import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  createOutboundFetch,
  OutboundBlockedError,
  readTextPrefix,
  type Resolver,
} from './outbound-fetch';
import { createOutboundPolicy } from './outbound-policy';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface TestServer {
  port: number;
  url: (path: string) => string;
  hits: string[];
  handle: (path: string, handler: Handler) => void;
  close: () => Promise<void>;
}

async function startServer(): Promise<TestServer> {
  const handlers = new Map<string, Handler>();
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const handler = handlers.get(req.url ?? '/');
    if (handler) return handler(req, res);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits,
    handle: (path, handler) => handlers.set(path, handler),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const loopbackAllowed = createOutboundPolicy({ allowPrivate: false, allowlist: '127.0.0.1' });
const publicOnly = createOutboundPolicy({ allowPrivate: false, allowlist: '' });
/** A DNS server of our own: names resolve to whatever the test says. */
const fixedDns =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

async function failure(promise: Promise<unknown>): Promise<Error & { cause?: Error }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  // An abort rejects with a DOMException, which is not an Error of Jest's realm.
  expect(error).toEqual(
    expect.objectContaining({ name: expect.any(String), message: expect.any(String) }),
  );
  return error as Error & { cause?: Error };
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.hits.length = 0;
});

describe('createOutboundFetch', () => {
  it('refuses a loopback address by default, without connecting', async () => {
    const outbound = createOutboundFetch({ policy: publicOnly });
    const error = await failure(outbound(server.url('/')));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.cause).toBeInstanceOf(OutboundBlockedError);
    expect(error.cause?.message).toMatch(/^127\.0\.0\.1 is a loopback address/);
    expect(server.hits).toEqual([]);
  });

  it('refuses IPv6 and IPv4-mapped literals of the host itself', async () => {
    const outbound = createOutboundFetch({ policy: publicOnly });
    for (const url of [
      `http://[::1]:${server.port}/`,
      `http://[::ffff:127.0.0.1]:${server.port}/`,
      `http://0.0.0.0:${server.port}/`,
    ]) {
      expect((await failure(outbound(url))).cause).toBeInstanceOf(OutboundBlockedError);
    }
    expect(server.hits).toEqual([]);
  });

  it('refuses numeric host forms that URL parsing turns into loopback', async () => {
    const outbound = createOutboundFetch({ policy: publicOnly });
    for (const host of ['2130706433', '0x7f.1', '127.1']) {
      expect((await failure(outbound(`http://${host}:${server.port}/`))).cause).toBeInstanceOf(
        OutboundBlockedError,
      );
    }
  });

  it('fetches from an allowed address, with method, headers and body', async () => {
    server.handle('/echo', (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () =>
        res
          .writeHead(201, {
            'content-type': 'application/json',
            'x-seen': String(req.headers['x-test']),
          })
          .end(JSON.stringify({ method: req.method, body })),
      );
    });
    const outbound = createOutboundFetch({ policy: loopbackAllowed });
    const response = await outbound(server.url('/echo'), {
      method: 'post',
      headers: { 'content-type': 'application/json', 'x-test': 'yes' },
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-seen')).toBe('yes');
    expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}' });
  });

  it('resolves a name once and connects to the address it checked', async () => {
    let lookups = 0;
    const outbound = createOutboundFetch({
      policy: loopbackAllowed,
      resolve: async (hostname) => {
        lookups += 1;
        return fixedDns({ 'registry.test': ['127.0.0.1'] })(hostname);
      },
    });
    const response = await outbound(`http://registry.test:${server.port}/x`);
    expect(await response.text()).toBe('hello');
    expect(lookups).toBe(1);
    expect(server.hits).toEqual(['GET /x']);
  });

  it('refuses a name when any of its addresses is refused', async () => {
    const outbound = createOutboundFetch({
      policy: publicOnly,
      resolve: fixedDns({ 'mixed.test': ['93.184.216.34', '127.0.0.1'] }),
    });
    const error = await failure(outbound(`http://mixed.test:${server.port}/`));
    expect(error.cause?.message).toMatch(/^mixed\.test \(127\.0\.0\.1\) is a loopback address/);
    expect(server.hits).toEqual([]);
  });

  it('never connects to the second answer of a rebinding DNS server', async () => {
    // First answer public (allowed), every later one the host itself: a check-then-fetch
    // implementation would resolve twice and connect to 127.0.0.1.
    const answers = ['192.0.2.10', '127.0.0.1'];
    let lookups = 0;
    const policy = createOutboundPolicy({ allowPrivate: false, allowlist: '192.0.2.10' });
    const outbound = createOutboundFetch({
      policy,
      resolve: async () => [{ address: answers[Math.min(lookups++, 1)], family: 4 }],
    });
    await failure(
      outbound(`http://rebind.test:${server.port}/`, { signal: AbortSignal.timeout(300) }),
    );
    expect(lookups).toBe(1);
    expect(server.hits).toEqual([]);
  });

  it('follows up to three redirects, checking each hop', async () => {
    server.handle('/r1', (_req, res) => res.writeHead(302, { location: '/r2' }).end());
    server.handle('/r2', (_req, res) => res.writeHead(301, { location: server.url('/r3') }).end());
    server.handle('/r3', (_req, res) => res.writeHead(307, { location: '/final' }).end());
    server.handle('/r0', (_req, res) => res.writeHead(308, { location: '/r1' }).end());
    const outbound = createOutboundFetch({ policy: loopbackAllowed });
    expect(await (await outbound(server.url('/r1'))).text()).toBe('hello');
    expect(server.hits).toEqual(['GET /r1', 'GET /r2', 'GET /r3', 'GET /final']);
    const tooMany = await failure(outbound(server.url('/r0')));
    expect(tooMany.cause?.message).toBe('more than 3 redirects');
  });

  it('refuses a redirect to a refused address', async () => {
    server.handle('/to-metadata', (_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    );
    const outbound = createOutboundFetch({ policy: loopbackAllowed });
    const error = await failure(outbound(server.url('/to-metadata')));
    expect(error.cause?.message).toMatch(/^169\.254\.169\.254 is a link-local address/);
  });

  it('turns a POST into a GET on 303 and drops credentials on a cross-origin hop', async () => {
    const seen: string[] = [];
    server.handle('/form', (_req, res) =>
      res.writeHead(303, { location: `http://localhost:${server.port}/done` }).end(),
    );
    server.handle('/done', (req, res) => {
      seen.push(`${req.method} auth=${req.headers.authorization ?? 'none'}`);
      res.end('done');
    });
    const outbound = createOutboundFetch({
      policy: createOutboundPolicy({ allowPrivate: false, allowlist: '127.0.0.1,localhost' }),
    });
    const response = await outbound(server.url('/form'), {
      method: 'POST',
      headers: { authorization: 'Bearer s3cret' },
      body: 'x',
    });
    expect(await response.text()).toBe('done');
    expect(seen).toEqual(['GET auth=none']);
  });

  it('gives up on a server that never answers when the signal fires', async () => {
    server.handle('/hang', () => undefined);
    const outbound = createOutboundFetch({ policy: loopbackAllowed });
    const started = Date.now();
    const error = await failure(
      outbound(server.url('/hang'), { signal: AbortSignal.timeout(200) }),
    );
    expect(error.name).toBe('TimeoutError');
    // The server never answers: ending at all shows the signal ended it; the bound only has to
    // be far below forever, not close to 200 ms, so a loaded machine passes too.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('stops reading a body that trickles when the signal fires', async () => {
    server.handle('/trickle', (_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const outbound = createOutboundFetch({ policy: loopbackAllowed });
    const response = await outbound(server.url('/trickle'), { signal: AbortSignal.timeout(300) });
    const started = Date.now();
    await expect(response.text()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('fails with the cause when the server resets the connection', async () => {
    server.handle('/reset', (req) => req.socket.destroy());
    const outbound = createOutboundFetch({ policy: loopbackAllowed });
    const error = await failure(outbound(server.url('/reset')));
    expect(error).toBeInstanceOf(TypeError);
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ECONNRESET');
  });

  it('refuses schemes other than http and https', async () => {
    const outbound = createOutboundFetch({ policy: loopbackAllowed });
    const error = await failure(outbound('file:///etc/passwd'));
    expect(error.cause?.message).toBe('file: URLs are not fetched');
  });
});

describe('readTextPrefix', () => {
  it('reads at most the given number of bytes of a large body', async () => {
    server.handle('/big', (_req, res) => res.end('y'.repeat(1_000_000)));
    const outbound = createOutboundFetch({ policy: loopbackAllowed });
    expect(await readTextPrefix(await outbound(server.url('/big')), 100)).toBe('y'.repeat(100));
  });
});
