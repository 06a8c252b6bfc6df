import { connect } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { peerFingerprint } from '../domain';
import type { SessionEndpoint } from './container-plan';

const ATTEMPT_TIMEOUT_MS = 2000;

/** A server that answered: over TLS, the SHA-256 of the certificate it presented (else null). */
export interface ServerAnswer {
  certificate: string | null;
}

/**
 * Whether the session's own server answers. A TCP connect is not enough: the engine's port
 * proxy accepts connections before the container's server listens, then drops them. So an HTTP
 * server must send back bytes for a request, and an HTTPS one must finish a TLS handshake; the
 * certificate it presented is returned for the session's pin (settlePin). Nothing is sent to it.
 */
export function serverAnswers(
  host: string,
  port: number,
  scheme: SessionEndpoint['scheme'],
): Promise<ServerAnswer | null> {
  return new Promise((resolve) => {
    const socket =
      scheme === 'https'
        ? connectTls({ host, port, rejectUnauthorized: false }, function (this: TLSSocket) {
            done({ certificate: peerFingerprint(this.getPeerX509Certificate()) });
          })
        : connect({ host, port }, () => socket.write('HEAD / HTTP/1.0\r\n\r\n'));
    const timer = setTimeout(() => done(null), ATTEMPT_TIMEOUT_MS);
    function done(answer: ServerAnswer | null) {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    }
    if (scheme === 'http') socket.once('data', () => done({ certificate: null }));
    socket.once('error', () => done(null));
    socket.once('close', () => done(null));
  });
}

/** Polls until the server answers; polls often, since a refused attempt costs next to nothing. */
export async function waitUntilServing(
  host: string,
  port: number,
  scheme: SessionEndpoint['scheme'],
  deadline: number,
): Promise<ServerAnswer | null> {
  while (Date.now() < deadline) {
    const answer = await serverAnswers(host, port, scheme);
    if (answer) return answer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}
