import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { serverAnswers, waitUntilServing } from './session-ready';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('serverAnswers', () => {
  it('is true for an HTTP server, whatever the status it answers', async () => {
    const port = await listen(createHttpServer((_req, res) => res.writeHead(404).end()));
    expect(await serverAnswers('127.0.0.1', port, 'http')).toEqual({ certificate: null });
  });

  it('is false for a port that accepts and drops the connection, as an engine port proxy does before the server listens', async () => {
    const port = await listen(createServer((socket) => socket.destroy()));
    expect(await serverAnswers('127.0.0.1', port, 'http')).toBeNull();
    expect(await serverAnswers('127.0.0.1', port, 'https')).toBeNull();
  });

  it('is false for a refused port', async () => {
    const port = await listen(createServer());
    await new Promise((resolve) => servers.pop()?.close(resolve));
    expect(await serverAnswers('127.0.0.1', port, 'http')).toBeNull();
  });
});

describe('waitUntilServing', () => {
  it('ends as soon as the server answers, and gives up at the deadline', async () => {
    const port = await listen(createHttpServer((_req, res) => res.end('ok')));
    expect(await waitUntilServing('127.0.0.1', port, 'http', Date.now() + 60_000)).toEqual({
      certificate: null,
    });
    const dropping = await listen(createServer((socket) => socket.destroy()));
    expect(await waitUntilServing('127.0.0.1', dropping, 'http', Date.now() + 200)).toBeNull();
  });
});
