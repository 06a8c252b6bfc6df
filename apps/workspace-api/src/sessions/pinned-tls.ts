import { connect, type TLSSocket } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import { peerFingerprint } from '../domain';

/**
 * The container presented another certificate than its session's pin: whoever answered at the
 * container's address is not the container the platform started (an address taken over on the
 * bridge), or the session has no pin. Nothing (no password, no keystroke) was sent to it.
 */
export class CertificatePinError extends Error {
  override name = 'CertificatePinError';
  readonly code = 'SESSION_CERTIFICATE_MISMATCH';
}

/** Why a connection's certificate is not the session's pin, or null when it is. */
export function pinRefusal(presented: string | null, pin: string | null): string | null {
  if (!pin) return 'the session has no pinned certificate (started before pinning: restart it)';
  if (!presented) return 'the container presented no certificate';
  if (presented !== pin)
    return `the container presented certificate sha256:${presented}, not the session's sha256:${pin}`;
  return null;
}

/** Checks a connection whose handshake is done; on a mismatch it is destroyed, unused. */
export function checkPin(socket: TLSSocket, pin: string | null): CertificatePinError | null {
  const refusal = pinRefusal(peerFingerprint(socket.getPeerX509Certificate()), pin);
  if (!refusal) return null;
  socket.destroy();
  return new CertificatePinError(refusal);
}

/**
 * A TLS connection to a session's container, handed over only once the certificate it presented
 * is the session's pin. The certificate is self-signed: the pin, not a CA, is what is trusted, so
 * Node's chain check is off and this check takes its place, before a byte is written.
 */
export function connectPinned(
  host: string,
  port: number,
  pin: string | null,
  timeoutMs = 10_000,
): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: host.replace(/^\[|\]$/g, ''), port, rejectUnauthorized: false });
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('the TLS handshake timed out')));
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      socket.setTimeout(0);
      socket.off('error', reject);
      const refused = checkPin(socket, pin);
      if (refused) reject(refused);
      else resolve(socket);
    });
  });
}

/**
 * The pin a session keeps once its server first answers (launch or resume): the certificate the
 * platform issued when the server presents it. An image that makes its own at every start
 * (Kasm's images rewrite `~/.vnc/self.pem`) gets the one it presents pinned at that first
 * contact, which no password precedes; but a server that presented the issued one before and
 * presents another now is refused.
 */
export function settlePin(
  issued: string | null,
  current: string | null,
  presented: string | null,
): { pin: string | null; firstUse: boolean } | { refused: string } {
  // Plain HTTP (a workspace an administrator allowed it): no TLS, nothing to pin.
  if (presented === null) return { pin: null, firstUse: false };
  if (presented === issued) return { pin: presented, firstUse: false };
  if (issued !== null && current === issued)
    return {
      refused: `The session's server no longer presents the certificate the platform gave it`,
    };
  return { pin: presented, firstUse: true };
}

/** Logs a pin taken at first use: the image made its own certificate instead of the platform's. */
export function warnFirstUse(log: FastifyBaseLogger, kasmId: string, pin: string | null): void {
  log.warn(
    { kasmId, certificateSha256: pin },
    "session server presents its own certificate, not the platform's: pinned the one it presented first",
  );
}
