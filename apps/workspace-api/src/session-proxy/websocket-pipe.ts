import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connectPinned } from '../sessions';
import type { ClipboardGuard } from './clipboard-guard';
import type { FrameRewriter } from './frame-rewriter';
import { ClientInputObserver } from './rfb-input';
import { forwardInBatches } from './stream-batches';

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
  /**
   * Told of each chunk the browser sends once the stream is open that carries its user's input:
   * on a VNC stream a key, pointer or clipboard message, not noVNC's screen update requests; on
   * any other stream every chunk (see ClientInputObserver).
   */
  onInput?: () => void;
  /** Told of each whole input message (KeyEvent, PointerEvent, …) the browser sends: recordings. */
  onInputMessage?: ((message: Buffer) => void) | null;
  /** A connection to the container made already (the socket hop): the handshake goes over it. */
  socket?: Socket;
  /** Over TLS, the certificate the container must present before anything is sent (its pin). */
  pin?: string | null;
  /** Told why no connection was made to the container (a certificate that is not the pin). */
  onRefused?: (error: Error) => void;
  /** The clipboard policy's rewriters; none: the stream is piped unread. */
  guard?: ClipboardGuard | null;
  /** Told why a guarded stream was closed (it could not be followed). */
  onGuardClosed?: (error: Error) => void;
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
 * decoded and re-encoded, so the stream costs a copy (the container's side sent in batches:
 * stream-batches.ts). The browser's frames are also read, not
 * changed, to tell its user's input (the idle limit). Under a clipboard restriction (`guard`)
 * the frames of one side or both are read and those carrying refused clipboard text framed
 * again without it; a guarded stream that cannot be followed is closed. Either
 * side closing or failing ends both. A container that refuses the upgrade gets its status passed
 * on, and one that cannot be reached is a 502.
 */
export function pipeWebSocket(
  client: Duplex,
  request: IncomingMessage,
  url: URL,
  target: PipeOptions,
): void {
  if (url.protocol === 'https:' && !target.socket) {
    connectPinned(url.hostname, Number(url.port || 443), target.pin ?? null).then(
      (socket) => {
        if (client.destroyed) socket.destroy();
        else pipeWebSocket(client, request, url, { ...target, socket });
      },
      (error: Error) => {
        target.onRefused?.(error);
        refuse(client, 502, 'Bad Gateway');
      },
    );
    return;
  }
  const headers: Record<string, string> = { connection: 'Upgrade', upgrade: 'websocket' };
  for (const name of FORWARDED) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  for (const [name, value] of Object.entries(target.headers)) if (value) headers[name] = value;

  const transport = url.protocol === 'https:' ? https : http;
  const { socket: connected } = target;
  const upstream = transport.request(url, {
    method: 'GET',
    headers,
    // No agent: a connection of its own, or the one made already (used only without an agent);
    // over TLS always the one made and checked against the pin above.
    ...(connected ? { createConnection: () => connected } : { agent: false }),
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
    setNoDelay(socket);
    setNoDelay(client);
    const guard = target.guard;
    const closeGuarded = (error: unknown) => {
      target.onGuardClosed?.(error as Error);
      endBoth(socket);
    };
    const rewrite = guard?.fromContainer && guarded(guard.fromContainer, closeGuarded);
    if (head.length > 0) for (const bytes of rewrite ? rewrite(head) : [head]) client.write(bytes);
    forwardInBatches(socket, client, rewrite || undefined);
    if (guard) {
      const fromBrowser = guarded(guard.fromBrowser, closeGuarded);
      client.on('data', (chunk: Buffer) => {
        let flowing = true;
        for (const bytes of fromBrowser(chunk)) flowing = socket.write(bytes) && flowing;
        if (!flowing && !client.isPaused()) {
          client.pause();
          socket.once('drain', () => client.resume());
        }
      });
    } else client.pipe(socket);
    const { onInput, onInputMessage } = target;
    if (onInput || onInputMessage) {
      // Only the browser's (small) side is read, beside the pipe: it forwards the same bytes.
      const observer = new ClientInputObserver(onInputMessage ?? undefined);
      client.on('data', (chunk: Buffer) => {
        if (observer.push(chunk)) onInput?.();
      });
    }
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

/** A rewriter's push that ends the stream (fail closed) instead of throwing. */
function guarded(rewriter: FrameRewriter, close: (error: unknown) => void) {
  let closed = false;
  return (chunk: Buffer): Buffer[] => {
    if (closed) return [];
    try {
      return rewriter.push(chunk);
    } catch (error) {
      closed = true;
      close(error);
      return [];
    }
  };
}

function setNoDelay(socket: Duplex): void {
  (socket as Duplex & { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
}
