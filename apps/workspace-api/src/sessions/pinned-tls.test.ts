import { type AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:tls';
import { issueSessionCertificate } from '../domain';
import { CertificatePinError, connectPinned, pinRefusal, settlePin } from './pinned-tls';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

/** A TLS server presenting a new certificate, recording every byte a client sends it. */
async function tlsServer() {
  const { pem, fingerprint } = issueSessionCertificate('container');
  const received: Buffer[] = [];
  const server = createServer({ cert: pem, key: pem }, (socket) => {
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, fingerprint, received };
}

describe('connectPinned', () => {
  it('hands over the connection when the container presents the pinned certificate', async () => {
    const server = await tlsServer();
    const socket = await connectPinned('127.0.0.1', server.port, server.fingerprint);
    await new Promise<void>((resolve) => socket.write('hello', () => resolve()));
    socket.destroy();
    expect(socket.authorized).toBe(false); // no CA vouches for it: the pin does
  });

  it('refuses another certificate, naming both, and sends the impostor nothing', async () => {
    const impostor = await tlsServer();
    const pin = issueSessionCertificate('the real container').fingerprint;
    const refused = await connectPinned('127.0.0.1', impostor.port, pin).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(CertificatePinError);
    expect((refused as Error).message).toBe(
      `the container presented certificate sha256:${impostor.fingerprint}, not the session's sha256:${pin}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Buffer.concat(impostor.received).length).toBe(0);
  });

  it('refuses every certificate for a session without a pin', async () => {
    const server = await tlsServer();
    await expect(connectPinned('127.0.0.1', server.port, null)).rejects.toThrow(
      /has no pinned certificate/,
    );
  });
});

describe('pinRefusal', () => {
  it('accepts only the pin itself', () => {
    expect(pinRefusal('ab', 'ab')).toBeNull();
    expect(pinRefusal('ab', 'cd')).toMatch(
      /presented certificate sha256:ab, not the session's sha256:cd/,
    );
    expect(pinRefusal(null, 'cd')).toBe('the container presented no certificate');
  });
});

describe('settlePin', () => {
  it('pins the certificate the platform issued when the server presents it', () => {
    expect(settlePin('issued', null, 'issued')).toEqual({ pin: 'issued', firstUse: false });
  });

  it('pins what a server that makes its own certificate presents at its first answer', () => {
    expect(settlePin('issued', null, 'own')).toEqual({ pin: 'own', firstUse: true });
    // Kasm's images make a new one at every start: a resume pins the new one.
    expect(settlePin('issued', 'own', 'own again')).toEqual({ pin: 'own again', firstUse: true });
  });

  it('refuses a server that presented the issued certificate before and another one now', () => {
    expect(settlePin('issued', 'issued', 'other')).toEqual({
      refused: "The session's server no longer presents the certificate the platform gave it",
    });
  });

  it('pins nothing for plain HTTP', () => {
    expect(settlePin('issued', null, null)).toEqual({ pin: null, firstUse: false });
  });
});
