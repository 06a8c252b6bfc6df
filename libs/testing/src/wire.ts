import http from 'node:http';
import type { FuzzRequest } from './fuzz-cases';

/** What a real server answered: the fields `responseProblem` reads, as `app.inject` gives them. */
export interface WireResponse {
  statusCode: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: () => unknown;
}

/** A request as the fuzz cases make it, whose body may also be bytes. */
export type WireRequest = Omit<FuzzRequest, 'payload'> & { payload?: string | Buffer };

// One connection at a time, kept alive: many requests in a row reuse it, as a browser would.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * Sends a request over a real TCP connection to `origin` (what `app.inject` cannot reproduce:
 * the body as a stream, the socket's lifetime). Rejects when no answer came within `timeoutMs`.
 */
export function sendOverWire(
  origin: string,
  request: WireRequest,
  timeoutMs = 10_000,
): Promise<WireResponse> {
  return sendOnce(origin, request, timeoutMs, agent);
}

function sendOnce(
  origin: string,
  request: WireRequest,
  timeoutMs: number,
  through: http.Agent | false,
): Promise<WireResponse> {
  return new Promise((resolve, rejectWith) => {
    const reject = (error: Error) =>
      rejectWith(new Error(`${request.method} ${request.url}: ${error.message}`));
    const payload =
      typeof request.payload === 'string' ? Buffer.from(request.payload) : request.payload;
    const headers: Record<string, string | number> = { ...request.headers };
    if (payload) headers['content-length'] = payload.length;
    let answered = false;
    const req = http.request(
      new URL(request.url, origin),
      { method: request.method, headers, agent: through, timeout: timeoutMs },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('close', () => {
          if (!res.complete) reject(new Error('answer cut off'));
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            statusCode: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body),
          });
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(
        new Error(`no answer within ${timeoutMs} ms (a hang): ${request.method} ${request.url}`),
      ),
    );
    // A server may answer before the body is all sent and then close (it will not read the
    // rest): the write fails, but the answer stands.
    // A kept-alive connection the server closed (after an answer it sent before reading the whole
    // body) can be reset as the next request goes out on it: the request is sent once more, on
    // a connection of its own, as Node's documentation advises. A server that resets every
    // connection on this request still fails it.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (req.reusedSocket && error.code === 'ECONNRESET')
        sendOnce(origin, request, timeoutMs, false).then(resolve, rejectWith);
      else reject(error);
    });
    req.end(payload);
  });
}

/** Whether the server at `origin` still answers its liveness check with 200. */
export async function stillServing(origin: string, timeoutMs = 10_000): Promise<boolean> {
  const res = await sendOverWire(
    origin,
    { method: 'GET', url: '/health/live', headers: {} },
    timeoutMs,
  );
  return res.statusCode === 200;
}
