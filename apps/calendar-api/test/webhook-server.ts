import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
  /** Date.now() when the client gave up on it: it closed the connection before any answer. */
  abandonedAt?: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only once this settles (a webhook that hangs, or is slow). */
  after?: Promise<unknown>;
  /** Drop the connection instead of answering. */
  reset?: boolean;
}

type Responder = (request: ReceivedRequest, countOnPath: number) => Reply;

export interface WebhookServer {
  url: (path: string) => string;
  received: ReceivedRequest[];
  on: (path: string) => ReceivedRequest[];
  /** How to answer from now on; every request gets 200 "ok" until told otherwise. */
  respond: (responder: Responder) => void;
  reset: () => void;
  close: () => Promise<void>;
}

/** A real HTTP server on 127.0.0.1 standing in for Slack's and Discord's webhooks. */
export async function startWebhookServer(): Promise<WebhookServer> {
  const received: ReceivedRequest[] = [];
  const ok: Responder = () => ({ status: 200, body: 'ok' });
  let responder = ok;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const request: ReceivedRequest = {
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(request);
      res.once('close', () => {
        if (!res.writableEnded) request.abandonedAt = Date.now();
      });
      const reply = responder(request, received.filter((r) => r.path === request.path).length);
      if (reply.reset) {
        req.socket.destroy();
        return;
      }
      await reply.after;
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path) => received.filter((r) => r.path === path),
    respond: (next) => {
      responder = next;
    },
    reset: () => {
      received.length = 0;
      responder = ok;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A promise to hold replies with (`after: gate.opened`) until the test calls `gate.open()`. */
export function createGate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
