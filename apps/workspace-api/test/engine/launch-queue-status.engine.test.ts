import type { FastifyInstance } from 'fastify';
import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import { buildApp } from '../../src/app';
import {
  closeWorld,
  createSessionWorld,
  holdAgent,
  LONG,
  type SessionWorld,
} from './session-fixture';

// A launch whose turn does not come at once is answered `queued` with its kasm_id, and
// get_kasm_status on either replica answers its place in the queue until it is placed.
jest.setTimeout(4 * LONG);

let w: SessionWorld;
let replica: FastifyInstance;
let imageId: string;

beforeAll(async () => {
  w = await createSessionWorld({
    // One turn at a time, and a launch not placed within 0.2 s is answered queued.
    LAUNCH_CONCURRENCY: '1',
    LAUNCH_QUEUE_ANSWER_MS: '200',
  });
  replica = await buildApp(w.h.config);
  imageId = await w.addImage({ cores: 0.1, memory: BigInt(32 * 1024 ** 2) });
  await w.h.call('update_group', { target_group: { group_id: w.groupId, max_kasms_per_user: 2 } });
});
afterAll(async () => {
  await replica?.close();
  await closeWorld(w);
});

const ask = (userId: string) =>
  w.h.app.inject({
    method: 'POST',
    url: '/api/public/request_kasm',
    payload: { ...w.h.admin, user_id: userId, image_id: imageId },
  });

/** get_kasm_status through one replica or the other. */
async function statusOf(app: FastifyInstance, kasmId: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/get_kasm_status',
    payload: { ...w.h.admin, kasm_id: kasmId },
  });
  return { code: res.statusCode, body: res.json() };
}

describe('a launch waiting its turn', () => {
  it('is answered queued at once and shows its place in get_kasm_status on every replica', async () => {
    const [first, second, third, fourth, fifth] = await Promise.all(
      ['q-first', 'q-second', 'q-third', 'q-fourth', 'q-fifth'].map((name) => w.member(name)),
    );
    const release = await holdAgent(w, toUuid(w.agentId));
    // The first takes the only turn and waits for the agent; its answer comes once it is placed.
    const firstAnswer = ask(first.user_id);
    await waitFor(async () => {
      const [{ waiting }] = await w.h.db.$queryRawUnsafe<{ waiting: bigint }[]>(
        `SELECT count(*) AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (waiting === 0n) throw new Error('the first launch is not waiting for the agent yet');
    }, LONG);
    const queued = [];
    for (const user of [second, third, second, fourth, fifth, second]) {
      const res = await ask(user.user_id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'queued', user_id: user.user_id, kasm_url: '' });
      queued.push(res.json().kasm_id as string);
    }
    const [a, b, c, d, cancelled, overLimit] = queued;

    for (const app of [w.h.app, replica]) {
      const places = await Promise.all(queued.map(async (id) => (await statusOf(app, id)).body));
      expect(places.map((p) => p.operational_message)).toEqual([
        'waiting: 0 launches ahead',
        'waiting: 1 launch ahead',
        'waiting: 2 launches ahead',
        'waiting: 3 launches ahead',
        'waiting: 4 launches ahead',
        'waiting: 5 launches ahead',
      ]);
      expect(places[1]).toMatchObject({
        kasm_id: b,
        status: 'queued',
        operational_status: 'queued',
        operational_progress: 0,
        kasm_url: null,
        kasm: { kasm_id: b, user_id: third.user_id, username: 'q-third', server_id: '' },
      });
    }

    // destroy_kasm cancels a launch before its turn: the ones after it move up.
    expect((await w.h.call('destroy_kasm', { kasm_id: cancelled })).statusCode).toBe(200);
    expect((await statusOf(replica, cancelled)).code).toBe(404);
    expect((await statusOf(replica, overLimit)).body.operational_message).toBe(
      'waiting: 4 launches ahead',
    );

    await release();
    expect((await firstAnswer).json()).toMatchObject({ status: 'requested' });
    const placed = [a, b, c, d];
    for (const id of placed) await w.waitForStatus(toUuid(id), 'running');
    for (const id of placed) {
      expect(await statusOf(replica, id)).toMatchObject({
        code: 200,
        body: { kasm_id: id, operational_status: 'running' },
      });
    }
    // The third launch for one user, queued while the user held none, fails at its turn.
    const refused = await statusOf(w.h.app, overLimit);
    expect(refused.body).toMatchObject({
      operational_status: 'error',
      operational_message: expect.stringMatching(/^SESSION_LIMIT_REACHED: /),
    });
    expect(await w.h.db.kasm.count({ where: { id: toUuid(cancelled) } })).toBe(0);

    const all = [(await firstAnswer).json().kasm_id, ...placed];
    for (const id of all) {
      expect((await w.h.call('destroy_kasm', { kasm_id: id })).statusCode).toBe(200);
    }
    for (const id of all) await w.waitForStatus(toUuid(id), 'destroyed');
  });
});
