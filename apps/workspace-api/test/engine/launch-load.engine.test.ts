import Docker from 'dockerode';
import type { FastifyInstance } from 'fastify';
import { toUuid } from '@platform/schemas';
import { TEST_DOCKER_API_VERSION, testDockerHost } from '@platform/testing';
// A second engine comes from the repository's own tooling, which is no npm project of its own.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startTestEngine, type TestEngine } from '../../../../tools/docker-engine.cjs';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ensureTestImages } from '../../../../tools/docker-test-images.cjs';
import { buildApp } from '../../src/app';
import {
  closeWorld,
  createSessionWorld,
  docker,
  holdAgent,
  LONG,
  SESSION_LABEL,
  type SessionWorld,
} from './session-fixture';

// Launches under load: many concurrent request_kasm over two app instances on one database and
// two agents, each its own Docker engine (the run's and a second private dockerd).
jest.setTimeout(6 * LONG);

const socketOf = (host: string) => new URL(host).pathname;
/** Sessions per agent: each agent has 8 cores and each session needs 1. */
const PER_AGENT = 8;

let second: TestEngine | null = null;
let secondDocker: Docker;
let w: SessionWorld;
let replica: FastifyInstance;
let imageId: string;
let agentIds: { first: string; second: string };

beforeAll(async () => {
  second = await startTestEngine({ privateOnly: true });
  if (!second) throw new Error('a second engine needs root and dockerd on PATH (Debian docker.io)');
  await ensureTestImages(second.host);
  secondDocker = new Docker({
    socketPath: socketOf(second.host),
    version: TEST_DOCKER_API_VERSION,
  });
  w = await createSessionWorld({
    ENGINE_SOCKET_PATHS: `${socketOf(testDockerHost())},${socketOf(second.host)}`,
    // Every launch answers when its turn is done (not `queued` first), so that each answer here
    // says how its placement ended; launch-queue-status.engine.test.ts covers queued answers.
    LAUNCH_QUEUE_ANSWER_MS: '120000',
  });
  replica = await buildApp(w.h.config);
  imageId = await w.addImage({ cores: 1 });
  await w.h.call('update_agent', {
    target_agent: { agent_id: w.agentId, cores_override: PER_AGENT },
  });
  const added = await w.h.call('create_agent', {
    target_agent: {
      hostname: 'engine-2',
      zone_id: w.zoneId,
      docker_url: second.host,
      cores_override: PER_AGENT,
    },
  });
  expect(added.json().agent.status).toBe('online');
  agentIds = { first: toUuid(w.agentId), second: toUuid(added.json().agent.agent_id) };
  await w.h.call('update_group', { target_group: { group_id: w.groupId, max_kasms_per_user: 2 } });
});
afterAll(async () => {
  await replica?.close();
  if (w) {
    const containers = await secondDocker.listContainers({ all: true });
    await Promise.all(
      containers.map((c) => secondDocker.getContainer(c.Id).remove({ force: true })),
    );
  }
  await closeWorld(w);
  await second?.stop();
});

const ask = (app: FastifyInstance, userId: string) =>
  app.inject({
    method: 'POST',
    url: '/api/public/request_kasm',
    payload: { ...w.h.admin, user_id: userId, image_id: imageId },
  });

/** The session ids whose containers an engine runs (or holds). */
async function sessionsOn(docker: Docker): Promise<string[]> {
  const containers = await docker.listContainers({
    all: true,
    filters: { label: [SESSION_LABEL] },
  });
  return containers.map((c) => toUuid(c.Labels[SESSION_LABEL])).sort();
}

describe('placement', () => {
  it('goes on to the next agent while another launch holds the best one', async () => {
    const user = await w.member('patient');
    const planned = await w.h.call('get_launch_plan', {
      target_user: { user_id: user.user_id },
      target_image: { image_id: imageId },
    });
    expect(planned.json().launch_plan.agent.hostname).toBe('engine-1');
    // Another transaction holds engine-1, which an empty platform prefers (the first hostname).
    const release = await holdAgent(w, agentIds.first);
    try {
      const res = await ask(w.h.app, user.user_id);
      expect(res.statusCode).toBe(200);
      const kasm = await w.h.db.kasm.findUniqueOrThrow({
        where: { id: toUuid(res.json().kasm_id) },
      });
      expect(kasm.agentId).toBe(agentIds.second);
      await w.waitForStatus(kasm.id, 'running');
      expect(await sessionsOn(secondDocker)).toEqual([kasm.id]);
      expect(await w.h.call('destroy_kasm', { kasm_id: res.json().kasm_id })).toMatchObject({
        statusCode: 200,
      });
      await w.waitForStatus(kasm.id, 'destroyed');
    } finally {
      await release();
    }
  });
});

describe('50 concurrent launches over two replicas and two agents', () => {
  it('answers every one, fills both agents exactly and keeps each user to their limit', async () => {
    // 5 users ask 6 times each (their group allows 2), 20 users once: more than the 16 sessions
    // the two agents hold, so launches race for the last places and users for their last session.
    const heavy = await Promise.all(Array.from({ length: 5 }, (_, i) => w.member(`heavy-${i}`)));
    const light = await Promise.all(Array.from({ length: 20 }, (_, i) => w.member(`light-${i}`)));
    const askers = [...heavy.flatMap((u) => Array(6).fill(u)), ...light].map(
      (u: { user_id: string }) => u.user_id,
    );
    // Interleaved, so that each user's requests reach both replicas.
    askers.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const answers = await Promise.all(
      askers.map((userId, i) => ask(i % 2 === 0 ? w.h.app : replica, userId)),
    );

    expect(answers).toHaveLength(50);
    const accepted = answers.filter((a) => a.statusCode === 200).map((a) => a.json());
    expect(accepted).toHaveLength(2 * PER_AGENT);
    const refusals = answers.filter((a) => a.statusCode !== 200);
    const codes = new Set(refusals.map((a) => `${a.statusCode} ${a.json().code}`));
    expect([...codes].sort()).toEqual(['409 SESSION_LIMIT_REACHED', '503 NO_AGENT_AVAILABLE']);
    const perUser = new Map<string, number>();
    for (const a of accepted) perUser.set(a.user_id, (perUser.get(a.user_id) ?? 0) + 1);
    expect(Math.max(...perUser.values())).toBeLessThanOrEqual(2);
    // A user is refused for their limit only while they hold it.
    askers.forEach((userId, i) => {
      if (answers[i].statusCode === 409) expect(perUser.get(userId)).toBe(2);
    });
    const ids = accepted.map((a) => toUuid(a.kasm_id));
    expect(new Set(ids).size).toBe(ids.length);

    const rows = await w.h.db.kasm.findMany({ where: { id: { in: ids } } });
    expect(rows).toHaveLength(ids.length);
    const placed = (agentId: string) =>
      rows
        .filter((r) => r.agentId === agentId)
        .map((r) => r.id)
        .sort();
    expect(placed(agentIds.first)).toHaveLength(PER_AGENT);
    expect(placed(agentIds.second)).toHaveLength(PER_AGENT);
    expect(await w.h.db.kasm.count({ where: { status: { not: 'destroyed' } } })).toBe(ids.length);

    for (const id of ids) await w.waitForStatus(id, 'running');
    // Each session runs on its agent's engine, once: the run's engine also holds no other session.
    const onFirst = (await sessionsOn(docker)).filter((id) => ids.includes(id));
    expect(onFirst).toEqual(placed(agentIds.first));
    expect(await sessionsOn(secondDocker)).toEqual(placed(agentIds.second));
  });
});
