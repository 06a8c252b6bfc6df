import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { toUuid } from '@platform/schemas';
import { buildApp } from '../app';
import {
  captureLogs,
  createHarness,
  expectFieldErrors,
  testConfig,
  type Harness,
} from '../../test/harness';
import { createTlsMaterial, type TlsMaterial } from '../../test/tls-material';

// The engine addresses create_agent and update_agent accept (src/engines/engine-address.ts),
// and what an agent whose engine fails shows: a plain reason, the engine's words only in the log.
let h: Harness;
let tls: TlsMaterial;
let zoneId: string;
const logs = captureLogs();
beforeAll(async () => {
  [h, tls] = await Promise.all([
    createHarness({ LOG_LEVEL: 'warn' }, { logStream: logs.stream }),
    createTlsMaterial(),
  ]);
});
afterAll(async () => {
  await h?.close();
  await tls?.remove();
});
beforeEach(async () => {
  await h.reset();
  await h.db.agent.deleteMany();
  await h.db.zone.deleteMany();
  zoneId = (
    await h.call('create_zone', { target_zone: { name: 'z', proxy_hostname: 'desk.example.com' } })
  ).json().zone.zone_id;
});

/** A TCP port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const withTls = () => ({
  tls_ca_path: tls.trusted.ca,
  tls_cert_path: tls.trusted.clientCert,
  tls_key_path: tls.trusted.clientKey,
});
const create = (agent: Record<string, unknown>) =>
  h.call('create_agent', { target_agent: { hostname: 'engine-1', zone_id: zoneId, ...agent } });
const messageOf = (
  res: { json: () => { errors: { field: string; message: string }[] } },
  field: string,
) => res.json().errors.find((e) => e.field === field)?.message;

describe('create_agent: refused engine addresses', () => {
  it('answers 400 for a socket the operator does not allow, naming ENGINE_SOCKET_PATHS', async () => {
    const res = await create({ docker_url: 'unix:///run/containerd/containerd.sock' });
    expectFieldErrors(res, ['target_agent.docker_url']);
    expect(messageOf(res, 'target_agent.docker_url')).toMatch(/ENGINE_SOCKET_PATHS/);
    expect(await h.db.agent.count()).toBe(0);
  });

  it('answers 400 for a socket path with ".." even when it leads to an allowed socket', async () => {
    expectFieldErrors(await create({ docker_url: 'unix:///var/run/../run/docker.sock' }), [
      'target_agent.docker_url',
    ]);
  });

  it('answers 400 for tcp:// without TLS', async () => {
    const res = await create({ docker_url: 'tcp://127.0.0.1:2375' });
    expectFieldErrors(res, ['target_agent.docker_url']);
    expect(messageOf(res, 'target_agent.docker_url')).toMatch(/^tcp:\/\/ needs TLS/);
    expect(await h.db.agent.count()).toBe(0);
  });

  it('answers 400 for a client certificate and key without their CA', async () => {
    const res = await create({ docker_url: 'tcp://127.0.0.1:2376', ...withTls(), tls_ca_path: '' });
    expectFieldErrors(res, ['target_agent.tls_ca_path']);
    expect(messageOf(res, 'target_agent.tls_ca_path')).toMatch(/without the CA/);
  });

  it('answers 400 for a CA without the client certificate and key', async () => {
    const res = await create({ docker_url: 'tcp://127.0.0.1:2376', tls_ca_path: tls.trusted.ca });
    expectFieldErrors(res, ['target_agent.tls_cert_path', 'target_agent.tls_key_path']);
  });

  it('answers 400 for https://, ssh:// and TLS paths on a socket', async () => {
    for (const url of ['https://127.0.0.1:2376', 'ssh://root@127.0.0.1']) {
      expectFieldErrors(await create({ docker_url: url, ...withTls() }), [
        'target_agent.docker_url',
      ]);
    }
    expectFieldErrors(await create({ docker_url: 'unix:///var/run/docker.sock', ...withTls() }), [
      'target_agent.tls_ca_path',
      'target_agent.tls_cert_path',
      'target_agent.tls_key_path',
    ]);
  });

  it('answers 400 for TLS files that are missing, not PEM, or a key of another certificate', async () => {
    const notPem = path.join(tls.dir, 'passwd');
    await writeFile(notPem, 'root:x:0:0:root:/root:/bin/bash\n');
    const res = await create({
      docker_url: 'tcp://127.0.0.1:2376',
      tls_ca_path: path.join(tls.dir, 'missing.pem'),
      tls_cert_path: notPem,
      tls_key_path: tls.trusted.clientKey,
    });
    expectFieldErrors(res, ['target_agent.tls_ca_path', 'target_agent.tls_cert_path']);
    expect(res.body).not.toContain('/root:/bin/bash');
    const mismatched = await create({
      docker_url: 'tcp://127.0.0.1:2376',
      ...withTls(),
      tls_key_path: tls.other.clientKey,
    });
    expectFieldErrors(mismatched, ['target_agent.tls_key_path']);
  });
});

describe('an engine that fails', () => {
  it('is registered offline with a plain reason for every reader; its own words are in the log', async () => {
    const port = await closedPort();
    const res = await create({ docker_url: `tcp://127.0.0.1:${port}`, ...withTls() });
    expect(res.statusCode).toBe(200);
    const reason = "The agent's engine does not answer (ENGINE_UNREACHABLE)";
    expect(res.json().agent).toMatchObject({ status: 'offline', status_reason: reason });
    const viewer = await h.issueKey(['settings.view'], { readOnly: true });
    const listed = await h.call('get_agents', {}, viewer);
    expect(listed.json().agents[0].status_reason).toBe(reason);
    expect(listed.body).not.toMatch(/ECONNREFUSED/);
    const line = logs.lines().find((l) => String(l.engineDetail).includes('ECONNREFUSED'));
    expect(line).toMatchObject({
      msg: 'engine call failed',
      agentHostname: 'engine-1',
      failure: 'ENGINE_UNREACHABLE',
    });
  });
});

describe('update_agent: engine addresses', () => {
  it('refuses plain tcp:// and a certificate without its CA, and leaves the agent as it was', async () => {
    const port = await closedPort();
    const agentId = (await create({ docker_url: `tcp://127.0.0.1:${port}`, ...withTls() })).json()
      .agent.agent_id;
    const update = (fields: Record<string, unknown>) =>
      h.call('update_agent', { target_agent: { agent_id: agentId, ...fields } });
    expectFieldErrors(await update({ tls_ca_path: '', tls_cert_path: '', tls_key_path: '' }), [
      'target_agent.docker_url',
    ]);
    expectFieldErrors(await update({ tls_ca_path: '' }), ['target_agent.tls_ca_path']);
    expectFieldErrors(await update({ docker_url: 'unix:///tmp/docker.sock' }), [
      'target_agent.docker_url',
    ]);
    const row = await h.db.agent.findUniqueOrThrow({ where: { id: toUuid(agentId) } });
    expect(row).toMatchObject({ dockerUrl: `tcp://127.0.0.1:${port}`, tlsCaPath: tls.trusted.ca });
  });

  it('drops the TLS paths with the tcp:// address', async () => {
    const port = await closedPort();
    const agentId = (await create({ docker_url: `tcp://127.0.0.1:${port}`, ...withTls() })).json()
      .agent.agent_id;
    const res = await h.call('update_agent', {
      target_agent: { agent_id: agentId, docker_url: '', cores: 2, memory: 2 ** 30 },
    });
    expect(res.json().agent).toMatchObject({
      docker_url: '',
      status: 'unknown',
      status_reason: '',
    });
    expect(await h.db.agent.findUniqueOrThrow({ where: { id: toUuid(agentId) } })).toMatchObject({
      tlsCaPath: '',
      tlsCertPath: '',
      tlsKeyPath: '',
    });
  });
});

describe('ENGINE_ALLOW_INSECURE_TCP', () => {
  it('accepts plain tcp:// and says so loudly at start', async () => {
    const labLogs = captureLogs();
    const config = testConfig(h.database.url, {
      ENGINE_ALLOW_INSECURE_TCP: 'true',
      LOG_LEVEL: 'warn',
    });
    let lab: FastifyInstance | undefined;
    try {
      lab = await buildApp(config, { database: h.data, logStream: labLogs.stream });
      expect(labLogs.text()).toMatch(/ENGINE_ALLOW_INSECURE_TCP is on/);
      const res = await lab.inject({
        method: 'POST',
        url: '/api/public/create_agent',
        payload: {
          ...h.admin,
          target_agent: {
            hostname: 'lab-1',
            zone_id: zoneId,
            docker_url: `tcp://127.0.0.1:${await closedPort()}`,
          },
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().agent.status).toBe('offline');
    } finally {
      await lab?.close();
    }
  });
});
