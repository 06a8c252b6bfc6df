import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hashSecret, randomSecret } from '@platform/secrets';
import { toUuid, toWireId } from '@platform/schemas';
import type { Harness } from '../harness';
import { createImage } from '../image-factories';

/** What the stand-in container received of one request. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bytes: number;
  sha256: string;
}

/**
 * A running session without a Docker engine: its row points at a real local HTTP server that
 * stands in for the container, and a grant admits the holder of `cookie`.
 */
export interface RunningSession {
  kasmId: string;
  cookie: string;
  /** Every request the stand-in container received, in order. */
  received: Received[];
  close: () => Promise<void>;
}

/** The stand-in container: answers each request with what it received of it. */
async function startContainer(received: Received[]): Promise<Server> {
  const server = createServer((req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    req.on('end', () => {
      const got = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes };
      received.push({ ...got, sha256: hash.digest('hex') });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(got));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

export async function createRunningSession(h: Harness): Promise<RunningSession> {
  const received: Received[] = [];
  const container = await startContainer(received);
  const suffix = randomBytes(3).toString('hex');
  const zone = await h.db.zone.create({
    data: { name: `zone-${suffix}`, proxyHostname: 'localhost', proxyPort: 0 },
  });
  // A tcp:// engine address: the proxy reaches the session's port on that engine's host.
  const agent = await h.db.agent.create({
    data: {
      hostname: `agent-${suffix}`,
      zoneId: zone.id,
      dockerUrl: 'tcp://127.0.0.1:2375',
      cores: 4,
      memory: BigInt(4 * 1024 ** 3),
    },
  });
  const imageId = await createImage(h.db);
  const user = await h.db.user.create({ data: { username: `viewer-${suffix}` } });
  const hour = new Date(Date.now() + 3600_000);
  const kasm = await h.db.kasm.create({
    data: {
      userId: user.id,
      imageId: toUuid(imageId),
      agentId: agent.id,
      status: 'running',
      cores: 1,
      memory: BigInt(1024 ** 3),
      plan: { image: { runConfig: { scheme: 'http', port: 6901 } } },
      tokenHash: hashSecret(randomSecret()),
      containerSecret: randomSecret(16),
      hostPort: (container.address() as AddressInfo).port,
      expiresAt: hour,
      hardExpiresAt: hour,
    },
  });
  const secret = randomSecret(32);
  const grant = await h.db.kasmGrant.create({
    data: { kasmId: kasm.id, secretHash: hashSecret(secret), expiresAt: hour },
  });
  return {
    kasmId: toWireId(kasm.id),
    cookie: `kasm_grant=${toWireId(grant.id)}.${secret}`,
    received,
    close: () => new Promise((resolve) => container.close(() => resolve())),
  };
}
