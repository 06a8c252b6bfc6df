import type { LightMyRequestResponse } from 'fastify';
import { toUuid } from '@platform/schemas';
// A second engine comes from the repository's own tooling, which is no npm project of its own.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startTestEngine, type TestEngine } from '../../../../tools/docker-engine.cjs';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ensureTestImages } from '../../../../tools/docker-test-images.cjs';
import { testDockerHost } from '@platform/testing';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

// A burst of launches larger than the connection pool: 50 at once onto one agent, then onto two.
// Before launches took turns (launch-queue.ts), a burst waited for pool connections and the
// agent's lock past DATABASE_TIMEOUT_MS and up to a third of it failed with 503 UNAVAILABLE.
jest.setTimeout(10 * LONG);

const BURST = 50;
const socketOf = (host: string) => new URL(host).pathname;

let second: TestEngine | null = null;
let w: SessionWorld;
let imageId: string;
let users: string[];

beforeAll(async () => {
  second = await startTestEngine({ privateOnly: true });
  if (!second) throw new Error('a second engine needs root and dockerd on PATH (Debian docker.io)');
  await ensureTestImages(second.host);
  w = await createSessionWorld({
    ENGINE_SOCKET_PATHS: `${socketOf(testDockerHost())},${socketOf(second.host)}`,
    // A pool much smaller than the burst, with the stock wait for a connection or a lock.
    DATABASE_POOL_MAX: '4',
    DATABASE_TIMEOUT_MS: '5000',
  });
  imageId = await w.addImage({ cores: 0.1, memory: BigInt(32 * 1024 ** 2) });
  users = await Promise.all(
    Array.from({ length: BURST }, async (_, i) => (await w.member(`burst-${i}`)).user_id),
  );
});
afterAll(async () => {
  await closeWorld(w);
  await second?.stop();
});

/** 50 request_kasm at once, one per user; then every session is waited for and destroyed. */
async function burst(): Promise<{ answers: LightMyRequestResponse[]; agents: Set<string> }> {
  const answers = await Promise.all(
    users.map((userId) =>
      w.h.app.inject({
        method: 'POST',
        url: '/api/public/request_kasm',
        payload: { ...w.h.admin, user_id: userId, image_id: imageId },
      }),
    ),
  );
  const failed = answers.filter((a) => a.statusCode !== 200).map((a) => a.body);
  expect(failed).toEqual([]);
  const ids = answers.map((a) => toUuid(a.json().kasm_id));
  // The first wait holds the whole burst's start on a loaded machine (past 60 s here once).
  for (const id of ids) await w.waitForStatus(id, 'running', 8 * LONG);
  const rows = await w.h.db.kasm.findMany({ where: { id: { in: ids } } });
  for (const a of answers) {
    expect(await w.h.call('destroy_kasm', { kasm_id: a.json().kasm_id })).toMatchObject({
      statusCode: 200,
    });
  }
  for (const id of ids) await w.waitForStatus(id, 'destroyed');
  return { answers, agents: new Set(rows.map((r) => r.agentId)) };
}

describe('a burst of launches larger than the database pool', () => {
  it('answers all 50 onto one agent and runs every one', async () => {
    const { answers, agents } = await burst();
    expect(answers).toHaveLength(BURST);
    expect([...agents]).toEqual([toUuid(w.agentId)]);
  });

  it('answers all 50 over two agents and runs every one', async () => {
    const added = await w.h.call('create_agent', {
      target_agent: {
        hostname: 'engine-2',
        zone_id: w.zoneId,
        docker_url: second?.host,
        cores_override: 64,
      },
    });
    expect(added.json().agent.status).toBe('online');
    const { answers, agents } = await burst();
    expect(answers).toHaveLength(BURST);
    expect(agents.size).toBe(2);
  });
});
