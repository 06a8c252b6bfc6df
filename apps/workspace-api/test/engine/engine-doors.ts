import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { testDockerHost } from '@platform/testing';
import type { TlsWorld } from '../tls-material';

/** A listener in front of the test engine's socket: an agent at tcp://127.0.0.1:<port> whose engine can be stopped. */
export interface EngineDoor {
  url: string;
  /** Handshakes the door refused, with the reason (a TLS door only). */
  refused: string[];
  close: () => Promise<void>;
}

function door(server: net.Server, refused: string[], open: Set<net.Socket>) {
  return new Promise<EngineDoor>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `tcp://127.0.0.1:${port}`,
        refused,
        close: () =>
          new Promise((done) => {
            for (const socket of open) socket.destroy();
            server.close(() => done());
          }),
      });
    }),
  );
}

function pipeToEngine(client: net.Socket, open: Set<net.Socket>) {
  const engine = net.connect(new URL(testDockerHost()).pathname);
  open.add(client).add(engine);
  client.pipe(engine).pipe(client);
  const end = () => {
    client.destroy();
    engine.destroy();
  };
  client.on('error', end).on('close', end);
  engine.on('error', end).on('close', end);
}

/** Plain TCP to the engine: what only ENGINE_ALLOW_INSECURE_TCP accepts. */
export function plainEngineDoor(): Promise<EngineDoor> {
  const open = new Set<net.Socket>();
  return door(
    net.createServer((client) => pipeToEngine(client, open)),
    [],
    open,
  );
}

/**
 * The engine behind mutual TLS, as `dockerd --tlsverify` serves it: the door presents `server`'s
 * certificate and accepts only clients whose certificate `clientCa` signed.
 */
export function tlsEngineDoor(server: TlsWorld, clientCa: string): Promise<EngineDoor> {
  const open = new Set<net.Socket>();
  const refused: string[] = [];
  const listener = tls.createServer(
    {
      cert: readFileSync(server.serverCert),
      key: readFileSync(server.serverKey),
      ca: readFileSync(clientCa),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (client) => pipeToEngine(client, open),
  );
  listener.on('tlsClientError', (error: Error & { code?: string }) =>
    refused.push(error.code ?? error.message),
  );
  return door(listener, refused, open);
}
