import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';

/** The browser's handshake headers the container needs; the rest stay on the platform's side. */
const FORWARDED = [
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-protocol',
  'sec-websocket-extensions',
  'user-agent',
] as const;

export interface PipeOptions {
  /** Extra headers for the container: its Basic credentials and the cookies it may see. */
  headers: Record<string, string | undefined>;
  /** The 101's headers as the browser may see them (e.g. its cookies kept to the session). */
  rewriteResponseHeaders: (headers: IncomingHttpHeaders) => IncomingHttpHeaders;
  /** Told of every chunk the browser sends once the stream is open (its user's input). */
  onInput?: () => void;
}

/** The container's address for a path of the browser's, or null when it names another origin. */
export function pipeUrl(origin: string, path: string): URL | null {
  if (!path.startsWith('/') || path.startsWith('//') || /[\\\0\r\n\t]/.test(path)) return null;
  const url = new URL(path, origin);
  return url.origin === new URL(origin).origin ? url : null;
}

const headLines = (headers: IncomingHttpHeaders): string =>
  Object.entries(headers)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [name, v]))
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');

/** A response on the raw connection that ends it (the handshake failed or was refused). */
function refuse(client: Duplex, status: number, reason: string): void {
  if (client.writable)
    client.end(`HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  client.destroy();
}

/**
 * Opens the same WebSocket on the container and joins the two connections byte for byte: the
 * handshake is the container's own (its 101 goes back to the browser), and the frames are never
 * parsed here, so the stream costs a copy, not a decode and re-encode of every message. Either
 * side closing or failing ends both. A container that refuses the upgrade gets its status passed
 * on, and one that cannot be reached is a 502.
 */
export function pipeWebSocket(
  client: Duplex,
  request: IncomingMessage,
  url: URL,
  target: PipeOptions,
): void {
  const headers: Record<string, string> = { connection: 'Upgrade', upgrade: 'websocket' };
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  for (const [name, value] of Object.entries(target.headers)) if (value) headers[name] = value;

  const transport = url.protocol === 'https:' ? https : http;
  const upstream = transport.request(url, {
    method: 'GET',
    headers,
    agent: false,
    // The container's certificate is self-signed: accepted on this hop only, as for HTTP.
    rejectUnauthorized: false,
  });
  const endBoth = (socket?: Duplex) => {
    socket?.destroy();
    client.destroy();
  };
  client.once('close', () => upstream.destroy());
  client.on('error', () => upstream.destroy());

  upstream.once('upgrade', (response: IncomingMessage, socket: Duplex, head: Buffer) => {
    const lines = headLines(target.rewriteResponseHeaders(response.headers));
    client.write(`HTTP/1.1 101 Switching Protocols\r\n${lines}\r\n`);
    if (head.length > 0) client.write(head);
    setNoDelay(socket);
    setNoDelay(client);
    socket.pipe(client);
    client.pipe(socket);
    if (target.onInput) client.on('data', target.onInput);
    socket.once('close', () => endBoth());
    socket.on('error', () => endBoth(socket));
    client.once('close', () => socket.destroy());
  });
  upstream.once('response', (response) => {
    response.resume();
    refuse(client, response.statusCode ?? 502, response.statusMessage ?? 'Refused');
  });
  upstream.on('error', () => refuse(client, 502, 'Bad Gateway'));
  upstream.end();
}

function setNoDelay(socket: Duplex): void {
  (socket as Duplex & { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
}
