import type { FastifyInstance } from 'fastify';
import { toUuid } from '@platform/schemas';
import { buildService, startBuiltServer, waitFor, type BuiltServer } from '@platform/testing';
import { buildApp } from '../../src/app';
import { closeWorld, createSessionWorld, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(4 * LONG);

let w: SessionWorld;
let replica: FastifyInstance;
const servers: BuiltServer[] = [];

beforeAll(async () => {
  buildService('workspace-api');
  w = await createSessionWorld();
  replica = await buildApp(w.h.config);
});
afterAll(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await replica?.close();
  await closeWorld(w);
});

describe('two replicas', () => {
  it('start exactly 2 of 8 concurrent sessions for a user whose group allows 2', async () => {
    await w.h.call('update_group', {
      target_group: { group_id: w.groupId, max_kasms_per_user: 2 },
    });
    const user = await w.member('eager');
    const ask = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/api/public/request_kasm',
        payload: { ...w.h.admin, user_id: user.user_id, image_id: w.imageId },
      });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => ask(i % 2 === 0 ? w.h.app : replica)),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 200, 409, 409, 409, 409, 409, 409]);
    const refused = answers.find((a) => a.statusCode === 409);
    expect(refused?.json().code).toBe('SESSION_LIMIT_REACHED');
    for (const answer of answers.filter((a) => a.statusCode === 200)) {
      await w.waitForStatus(toUuid(answer.json().kasm_id), 'running');
      expect(await w.containersOf(answer.json().kasm_id)).toHaveLength(1);
    }
    await w.h.call('update_group', {
      target_group: { group_id: w.groupId, max_kasms_per_user: 10 },
    });
  });
});

describe('two replicas reaping an abandoned resume at once', () => {
  it('put it back to stopped once, its container kept', async () => {
    const user = await w.member('resumed-twice');
    const requested = await w.request({ user_id: user.user_id, image_id: w.imageId });
    const id = toUuid(requested.kasm_id);
    await w.waitForStatus(id, 'running');
    expect((await w.h.call('stop_kasm', { kasm_id: requested.kasm_id })).statusCode).toBe(200);
    // What a resume leaves when its process dies before the move to running.
    await w.h.db.kasm.update({
      where: { id },
      data: {
        status: 'starting',
        leaseOwner: 'dead-replica',
        leaseUntil: new Date(Date.now() - 1),
      },
    });

    await Promise.all([w.h.app.sessionWorker.round(), replica.sessionWorker.round()]);
    const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'stopped', leaseOwner: null, leaseUntil: null });
    const [container] = await w.containersOf(requested.kasm_id);
    expect(container.State).toBe('exited');
  });
});

describe('a service killed in the middle of a launch', () => {
  it('leaves no container behind once it runs again', async () => {
    const env = {
      DATABASE_URL: w.h.database.url,
      // The test engine's socket, as the harness allows it: every replica needs the same policy.
      ENGINE_SOCKET_PATHS: w.h.config.ENGINE_SOCKET_PATHS,
      PROFILE_ROOT: w.profiles,
      SESSION_LEASE_SECONDS: '2',
      SESSION_SWEEP_INTERVAL_MS: '200',
      LOG_LEVEL: 'warn',
    };
    const first = await startBuiltServer('workspace-api', env);
    servers.push(first);
    // The go command holds the launch in "starting" with its container made.
    const imageId = await w.addImage({ execConfig: { go: { cmd: 'sleep 600' } } });
    const user = await w.member('interrupted');
    const res = await fetch(`${first.url}/api/public/request_kasm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...w.h.admin, user_id: user.user_id, image_id: imageId }),
    });
    expect(res.status).toBe(200);
    const { kasm_id } = (await res.json()) as { kasm_id: string };
    await w.waitForStatus(toUuid(kasm_id), 'starting');
    await waitFor(async () => {
      if ((await w.containersOf(kasm_id)).length !== 1) throw new Error('no container yet');
    }, LONG);

    first.child.kill('SIGKILL');
    await first.exited;
    expect(await w.containersOf(kasm_id)).toHaveLength(1);

    servers.push(await startBuiltServer('workspace-api', env));
    await waitFor(async () => {
      if ((await w.containersOf(kasm_id)).length > 0)
        throw new Error('the container is still there');
    }, LONG);
    await w.waitForStatus(toUuid(kasm_id), 'destroyed');
  });
});
