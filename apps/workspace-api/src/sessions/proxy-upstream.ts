import type { Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { Hop, SocketHop } from './socket-hop';

// A name that never resolves (RFC 6761): it only tells the connector below which session's
// socket a request is for.
const SOCKET_HOST = /^([0-9a-f]{32})\.session-socket\.invalid$/;

/** The upstream origin of a session's HTTP requests on the socket hop (its kasm id in hex). */
export const socketOrigin = (wireId: string) => `http://${wireId}.session-socket.invalid`;

/**
 * The proxy's HTTP client: a request to a socketOrigin goes to that session's socket (plain),
 * any other to the container's published port over TLS, whose self-signed certificate is
 * accepted on this hop only. Each new connection is counted by its hop.
 */
export function createUpstreamAgent(hop: SocketHop, counted: (hop: Hop) => void): Agent {
  const tls = buildConnector({ rejectUnauthorized: false });
  return new Agent({
    // As @fastify/reply-from's own agent: one request at a time on each of many connections.
    pipelining: 1,
    connections: 128,
    connect(options, callback) {
      const match = SOCKET_HOST.exec(options.hostname);
      if (!match) {
        counted('tls');
        return tls(options, callback);
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
