import { randomUUID } from 'node:crypto';
import { toUuid, toWireId } from '@platform/schemas';
import { TEST_WEB_IMAGE, testDockerHost } from '@platform/testing';
import { INSTALLATION_LABEL } from '../../src/engines';
import { createTlsMaterial, type TlsMaterial } from '../tls-material';
import { tlsEngineDoor } from './engine-doors';
import {
  closeWorld,
  createSessionWorld,
  docker,
  LONG,
  SESSION_LABEL,
  type SessionWorld,
} from './session-fixture';

jest.setTimeout(3 * LONG);

let w: SessionWorld;
let tls: TlsMaterial;
beforeAll(async () => {
  tls = await createTlsMaterial();
  w = await createSessionWorld({
    SESSION_KEEPALIVE_SECONDS: '300',
    SESSION_SWEEP_INTERVAL_MS: '50',
    // The test engine's socket, and one where no engine listens (an offline agent).
    ENGINE_SOCKET_PATHS: `${new URL(testDockerHost()).pathname},/nonexistent/docker.sock`,
  });
});
afterAll(async () => {
  await closeWorld(w);
  await tls?.remove();
});

async function running(username: string, body: Record<string, unknown> = {}) {
  const user = await w.member(username);
  const requested = await w.request({ user_id: user.user_id, ...body });
  await w.waitForStatus(toUuid(requested.kasm_id), 'running');
  return { ...requested, user };
}

/** The test engine behind mutual TLS at tcp://127.0.0.1:<port>, with the agent fields that reach it. */
async function engineDoor() {
  const door = await tlsEngineDoor(tls.trusted, tls.trusted.ca);
  return {
    ...door,
    agent: {
      docker_url: door.url,
      tls_ca_path: tls.trusted.ca,
      tls_cert_path: tls.trusted.clientCert,
      tls_key_path: tls.trusted.clientKey,
    },
  };
}

describe('keepalive', () => {
  it('extends a running session by the keepalive window, never past its time limit', async () => {
    const { kasm_id } = await running('keeper');
    const before = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasm_id) } });
    await w.h.db.kasm.update({
      where: { id: before.id },
      data: { expiresAt: new Date(Date.now() + 10_000) },
    });
    const res = await w.h.call('keepalive', { kasm_id });
    expect(res.statusCode).toBe(200);
    expect(res.json().usage_reached).toBe(false);
    const extended = Date.parse(res.json().expiration_date);
    expect(extended).toBeGreaterThan(Date.now() + 250_000);

    await w.h.db.kasm.update({
      where: { id: before.id },
      data: { hardExpiresAt: new Date(Date.now() + 60_000) },
    });
    const capped = (await w.h.call('keepalive', { kasm_id })).json();
    expect(capped.usage_reached).toBe(true);
    expect(Date.parse(capped.expiration_date)).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it('answers 409 for a session that is not running and 404 for an unknown one', async () => {
    const gone = await w.h.call('keepalive', { kasm_id: toWireId(randomUUID()) });
    expect(gone.statusCode).toBe(404);
    const { kasm_id, user } = await running('stopped-keeper');
    await w.h.call('destroy_kasm', { kasm_id, user_id: user.user_id });
    const res = await w.h.call('keepalive', { kasm_id });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('KASM_NOT_RUNNING');
  });
});

describe('the reaper', () => {
  it('destroys an expired session and its container', async () => {
    const { kasm_id } = await running('expiring');
    await w.h.db.kasm.update({
      where: { id: toUuid(kasm_id) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await w.h.app.sessionWorker.round();
    const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasm_id) } });
    expect(row.status).toBe('destroyed');
    expect(await w.containersOf(kasm_id)).toHaveLength(0);
  });

  it('cleans up a launch whose lease ran out (its process died)', async () => {
    const { kasm_id } = await running('abandoned');
    await w.h.db.kasm.update({
      where: { id: toUuid(kasm_id) },
      data: {
        // A launch has never run (started_at comes with running): unlike a resume, it goes away.
        status: 'starting',
        startedAt: null,
        leaseOwner: 'dead-replica',
        leaseUntil: new Date(Date.now() - 1000),
      },
    });
    await w.h.app.sessionWorker.round();
    expect((await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasm_id) } })).status).toBe(
      'destroyed',
    );
    expect(await w.containersOf(kasm_id)).toHaveLength(0);
  });
});

describe('the reconciler', () => {
  it('removes a labelled container with no session, and marks a session whose container vanished', async () => {
    const orphanId = toWireId(randomUUID());
    await docker.createContainer({ Image: TEST_WEB_IMAGE, Labels: { [SESSION_LABEL]: orphanId } });
    const { kasm_id } = await running('vanishing');
    const [container] = await w.containersOf(kasm_id);
    await docker.getContainer(container.Id).remove({ force: true });

    await w.h.app.sessionWorker.round();
    expect(await w.containersOf(orphanId)).toHaveLength(0);
    const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasm_id) } });
    expect(row.status).toBe('error');
    expect(row.statusMessage).toBe('The session container vanished from its agent');
  });

  it("labels a session's container with its installation and leaves another installation's orphans alone", async () => {
    const { kasm_id } = await running('labelled');
    const [container] = await w.containersOf(kasm_id);
    const [own] = await w.h.db.installation.findMany();
    expect(container.Labels[INSTALLATION_LABEL]).toBe(own.id);

    const theirs = toWireId(randomUUID());
    const ours = toWireId(randomUUID());
    const labelled = (sessionId: string, installationId: string) =>
      docker.createContainer({
        Image: TEST_WEB_IMAGE,
        Labels: { [SESSION_LABEL]: sessionId, [INSTALLATION_LABEL]: installationId },
      });
    await labelled(theirs, randomUUID());
    await labelled(ours, own.id);
    await w.h.app.sessionWorker.round();
    expect(await w.containersOf(ours)).toHaveLength(0);
    expect(await w.containersOf(theirs)).toHaveLength(1);
    expect(await w.containersOf(kasm_id)).toHaveLength(1);
    for (const { Id } of await w.containersOf(theirs)) {
      await docker.getContainer(Id).remove({ force: true });
    }
  });
});

describe('agents', () => {
  it('places sessions by free capacity over two agents and answers 503 with each reason when full', async () => {
    for (const kasm of (await w.h.call('get_kasms')).json().kasms) {
      await w.h.call('destroy_kasm', { kasm_id: kasm.kasm_id });
    }
    const door = await engineDoor();
    try {
      await w.h.call('update_agent', { target_agent: { agent_id: w.agentId, cores_override: 1 } });
      const second = await w.h.call('create_agent', {
        target_agent: {
          hostname: 'engine-2',
          zone_id: w.zoneId,
          ...door.agent,
          cores_override: 1,
        },
      });
      expect(second.json().agent).toMatchObject({ status: 'online', status_reason: '' });
      expect(second.json().agent.cores).toBeGreaterThan(0);
      const imageId = await w.addImage({ cores: 1 });
      const placed = [];
      for (const name of ['placed-1', 'placed-2']) {
        const { kasm_id } = await running(name, { image_id: imageId });
        placed.push((await w.h.call('get_kasm_status', { kasm_id })).json().kasm.hostname);
      }
      expect(placed.sort()).toEqual(['engine-1', 'engine-2']);
      const full = await w.h.call('request_kasm', {
        user_id: (await w.member('placed-3')).user_id,
        image_id: imageId,
      });
      expect(full.statusCode).toBe(503);
      expect(full.json().code).toBe('NO_AGENT_AVAILABLE');
      expect(
        full
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['agent engine-1', 'agent engine-2']);
    } finally {
      await door.close();
      await w.h.call('update_agent', { target_agent: { agent_id: w.agentId, cores_override: 64 } });
    }
  });

  it('marks an agent whose engine stops answering offline, with the reason', async () => {
    const door = await engineDoor();
    const created = await w.h.call('create_agent', {
      target_agent: { hostname: 'engine-3', zone_id: w.zoneId, ...door.agent },
    });
    const agentId = created.json().agent.agent_id;
    expect(created.json().agent.status).toBe('online');
    await door.close();
    await w.h.db.agent.update({
      where: { id: toUuid(agentId) },
      data: { heartbeatAt: new Date(0) },
    });
    await w.h.app.sessionWorker.round();
    const agents = (await w.h.call('get_agents')).json().agents;
    const offline = agents.find((a: { agent_id: string }) => a.agent_id === agentId);
    expect(offline.status).toBe('offline');
    expect(offline.status_reason).toBe("The agent's engine does not answer (ENGINE_UNREACHABLE)");
    await w.h.call('delete_agent', { target_agent: { agent_id: agentId } });
  });

  it('registers an unreachable engine as offline rather than refusing it', async () => {
    const res = await w.h.call('create_agent', {
      target_agent: {
        hostname: 'engine-nowhere',
        zone_id: w.zoneId,
        docker_url: 'unix:///nonexistent/docker.sock',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().agent.status).toBe('offline');
    expect(res.json().agent.status_reason).toBe(
      "The agent's engine does not answer (ENGINE_UNREACHABLE)",
    );
    await w.h.call('delete_agent', { target_agent: { agent_id: res.json().agent.agent_id } });
  });
});
