import { connect } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { SessionEndpoint } from './container-plan';

const ATTEMPT_TIMEOUT_MS = 2000;

/**
 * Whether the session's own server answers. A TCP connect is not enough: the engine's port
 * proxy accepts connections before the container's server listens, then drops them. So an HTTP
 * server must send back bytes for a request, and an HTTPS one must finish a TLS handshake
 * (its self-signed certificate accepted, as the session proxy does).
 */
export function serverAnswers(
  host: string,
  port: number,
  scheme: SessionEndpoint['scheme'],
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket =
      scheme === 'https'
        ? connectTls({ host, port, rejectUnauthorized: false }, () => done(true))
        : connect({ host, port }, () => socket.write('HEAD / HTTP/1.0\r\n\r\n'));
    const timer = setTimeout(() => done(false), ATTEMPT_TIMEOUT_MS);
    function done(answered: boolean) {
      clearTimeout(timer);
      socket.destroy();
      resolve(answered);
    }
    if (scheme === 'http') socket.once('data', () => done(true));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/** Polls until the server answers; polls often, since a refused attempt costs next to nothing. */
export async function waitUntilServing(
  host: string,
  port: number,
  scheme: SessionEndpoint['scheme'],
  deadline: number,
): Promise<boolean> {
  while (Date.now() < deadline) {
    if (await serverAnswers(host, port, scheme)) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}
