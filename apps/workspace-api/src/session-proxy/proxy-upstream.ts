import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { createExpiringCache } from '../domain';
import { checkPin, type Hop, type SocketHop } from '../sessions';

// A name that never resolves (RFC 6761): it only tells the connector below which session's
// socket a request is for.
const SOCKET_HOST = /^([0-9a-f]{32})\.session-socket\.invalid$/;

/** The upstream origin of a session's HTTP requests on the socket hop (its kasm id in hex). */
export const socketOrigin = (wireId: string) => `http://${wireId}.session-socket.invalid`;

const addressKey = (hostname: string, port: string | number) => `${hostname}|${port || 443}`;

/**
 * The pin of each container address the proxy admitted a request for, noted at admission (the
 * request's session) and read when the agent opens a connection there. An address is one
 * session's while it runs: the engine publishes each container on a port of its own.
 */
export function createTlsPins() {
  const pins = createExpiringCache<string, string | null>({ ttlMs: 60_000, maxEntries: 10_000 });
  return {
    note(origin: string, pin: string | null): void {
      const url = new URL(origin);
      if (url.protocol === 'https:') pins.set(addressKey(url.hostname, url.port), pin);
    },
    pinOf: (hostname: string, port: string | number): string | null =>
      pins.get(addressKey(hostname, port)) ?? null,
  };
}
export type TlsPins = ReturnType<typeof createTlsPins>;

/**
 * The proxy's HTTP client: a request to a socketOrigin goes to that session's socket (plain),
 * any other to the container's published port over TLS, handed to the request only once the
 * container presented its session's pinned certificate (self-signed: the pin is the trust).
 * A kept connection is not checked again: its peer holds the pinned key. Each new connection
 * is counted by its hop.
 */
export function createUpstreamAgent(
  hop: SocketHop,
  counted: (hop: Hop) => void,
  pins: TlsPins,
): Agent {
  const direct = buildConnector({ rejectUnauthorized: false });
  return new Agent({
    // As @fastify/reply-from's own agent: one request at a time on each of many connections.
    pipelining: 1,
    connections: 128,
    connect(options, callback) {
      const match = SOCKET_HOST.exec(options.hostname);
      if (!match) {
        counted('tls');
        // Plain HTTP only where an administrator allowed it (allow_plain_http): nothing to pin.
        if (options.protocol !== 'https:') return direct(options, callback);
        const pin = pins.pinOf(options.hostname, options.port);
        return direct(options, (error, socket) => {
          if (error) return callback(error, null);
          const refused = checkPin(socket as TLSSocket, pin);
          if (refused) callback(refused, null);
          else callback(null, socket);
        });
      }
      counted('socket');
      const failed = (error: Error) => callback(error, null);
      hop.connect(match[1]).then((socket: Socket) => {
        socket.once('error', failed).once('connect', () => {
          socket.off('error', failed);
          callback(null, socket);
        });
      }, failed);
    },
  });
}
