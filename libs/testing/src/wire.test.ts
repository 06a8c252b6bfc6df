import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendOverWire } from './wire';

describe('sendOverWire', () => {
  let server: http.Server;
  let origin: string;
  const served = new WeakMap<object, number>();
  beforeAll(async () => {
    // Every second request on a connection is reset unanswered, as a server closing a kept-alive
    // connection just as the next request arrives does.
    server = http.createServer((req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (count === 2) req.socket.resetAndDestroy();
      else res.end(`${req.url} ${count}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends a request once more, on a new connection, when a kept-alive one was reset', async () => {
    const first = await sendOverWire(origin, { method: 'GET', url: '/a', headers: {} });
    const second = await sendOverWire(origin, { method: 'GET', url: '/b', headers: {} });
    expect([first.body, second.body]).toEqual(['/a 1', '/b 1']);
  });
});
