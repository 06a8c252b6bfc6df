import { toUuid } from '@platform/schemas';
import { waitFor } from '@platform/testing';
import WebSocket from 'ws';
import {
  closeWorld,
  createSessionWorld,
  sweepFor,
  docker,
  LONG,
  type SessionWorld,
} from './session-fixture';

jest.setTimeout(4 * LONG);

let w: SessionWorld;
let base: string;
beforeAll(async () => {
  w = await createSessionWorld({ SESSION_KEEPALIVE_SECONDS: '300' });
  base = await w.h.app.listen({ port: 0, host: '127.0.0.1' });
  // Grants are minted only on the session URL's host: the zone names this server's.
  await w.h.db.zone.update({
    where: { id: toUuid(w.zoneId) },
    data: { proxyHostname: '127.0.0.1' },
  });
});
afterAll(() => closeWorld(w));

async function running(username: string, imageId = w.imageId) {
  const user = await w.member(username);
  const requested = await w.request({ user_id: user.user_id, image_id: imageId });
  await w.waitForStatus(toUuid(requested.kasm_id), 'running');
  return { ...requested, user };
}

async function containerState(kasmId: string) {
  const [container] = await w.containersOf(kasmId);
  if (!container) throw new Error(`session ${kasmId} has no container`);
  return (await docker.getContainer(container.Id).inspect()).State;
}

/** What the agent reports as reserved: held back plus what sessions reserve. */
async function allocatedCores(): Promise<number> {
  const res = await w.h.call('get_agents', {});
  const agent = res.json().agents.find((a: { agent_id: string }) => a.agent_id === w.agentId);
  return agent.allocated.cores;
}

async function exec(kasmId: string, cmd: string) {
  const res = await w.h.call('exec_command_kasm', { kasm_id: kasmId, exec_config: { cmd } });
  expect(res.statusCode).toBe(200);
  return res.json() as { exit_code: number; output: string };
}

/** Visits a fresh connect link: the grant cookie for the session's proxy. */
async function signIn(kasmId: string, userId: string): Promise<string> {
  const link = (await w.h.call('get_kasm_status', { kasm_id: kasmId, user_id: userId })).json();
  const url = new URL(link.kasm_url);
  const res = await fetch(`${base}${url.pathname}${url.search}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

describe('stop_kasm and resume_kasm', () => {
  it('stops the container keeping its files, frees its reservation, and resumes it on the same agent', async () => {
    const { kasm_id, user } = await running('sleeper');
    expect((await exec(kasm_id, 'echo kept > /tmp/kept.txt')).exit_code).toBe(0);
    const reservedRunning = await allocatedCores();
    const cookie = await signIn(kasm_id, user.user_id);

    const stopped = await w.h.call('stop_kasm', { kasm_id, user_id: user.user_id });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().kasm.operational_status).toBe('stopped');
    const state = await containerState(kasm_id);
    expect(state.Running).toBe(false);
    expect(await allocatedCores()).toBe(reservedRunning - 0.5);
    // Its container is still on the agent: the agent cannot be deleted from under it.
    const deleteAgent = await w.h.call('delete_agent', { target_agent: { agent_id: w.agentId } });
    expect(deleteAgent.statusCode).toBe(409);
    expect(deleteAgent.json().code).toBe('AGENT_HAS_SESSIONS');
    // The session still counts as the user's and is listed; the proxy says why it cannot enter.
    const listed = (await w.h.call('get_user_kasms', { user_id: user.user_id })).json();
    expect(listed.kasms.map((k: { kasm_id: string }) => k.kasm_id)).toEqual([kasm_id]);
    expect((await fetch(`${base}/kasm/${kasm_id}/`, { headers: { cookie } })).status).toBe(403);
    const newCookie = await signIn(kasm_id, user.user_id);
    const refused = await fetch(`${base}/kasm/${kasm_id}/`, { headers: { cookie: newCookie } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      code: 'KASM_NOT_RUNNING',
      detail: 'The session is stopped',
    });
    const notRunning = await w.h.call('exec_command_kasm', {
      kasm_id,
      exec_config: { cmd: 'true' },
    });
    expect(notRunning.statusCode).toBe(409);

    const resumed = await w.h.call('resume_kasm', { kasm_id });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().kasm.operational_status).toBe('running');
    expect(resumed.json().kasm.server_id).toBe(w.agentId);
    expect((await containerState(kasm_id)).Running).toBe(true);
    expect(await allocatedCores()).toBe(reservedRunning);
    expect((await exec(kasm_id, 'cat /tmp/kept.txt')).output.trim()).toBe('kept');
    // The proxy reaches the container on its new port.
    const again = await signIn(kasm_id, user.user_id);
    expect((await fetch(`${base}/kasm/${kasm_id}/`, { headers: { cookie: again } })).status).toBe(
      200,
    );
  });

  it('refuses to resume, with the reason, while the agent lacks room, and resumes once it has it', async () => {
    const { kasm_id } = await running('crowded');
    expect((await w.h.call('stop_kasm', { kasm_id })).statusCode).toBe(200);
    const hold = (cores: number) =>
      w.h.call('update_agent', { target_agent: { agent_id: w.agentId, allocated_cores: cores } });
    expect((await hold(64)).statusCode).toBe(200);
    try {
      const refused = await w.h.call('resume_kasm', { kasm_id });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('KASM_CANNOT_RESUME');
      expect(refused.json().detail).toMatch(/lacks room now \(0 free cores, needs 0.5\)/);
      expect((await containerState(kasm_id)).Running).toBe(false);
      const row = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasm_id) } });
      expect(row.status).toBe('stopped');
    } finally {
      await hold(0);
    }
    expect((await w.h.call('resume_kasm', { kasm_id })).json().kasm.operational_status).toBe(
      'running',
    );
    expect((await w.h.call('destroy_kasm', { kasm_id })).statusCode).toBe(200);
  });
});

describe('a resume whose process died', () => {
  const rowOf = (kasmId: string) =>
    w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(kasmId) } });
  const agentRow = () => w.h.db.agent.findUniqueOrThrow({ where: { id: toUuid(w.agentId) } });

  it('goes back to stopped with its container and files once its engine answers, and resumes', async () => {
    const { kasm_id } = await running('interrupted');
    expect((await exec(kasm_id, 'echo kept > /tmp/kept.txt')).exit_code).toBe(0);
    expect((await w.h.call('stop_kasm', { kasm_id })).statusCode).toBe(200);
    const reservedStopped = await allocatedCores();
    // What a process leaves when it dies between starting the container and the move to running.
    const [container] = await w.containersOf(kasm_id);
    await docker.getContainer(container.Id).start();
    await w.h.db.kasm.update({
      where: { id: toUuid(kasm_id) },
      data: {
        status: 'starting',
        leaseOwner: 'dead-replica',
        leaseUntil: new Date(Date.now() - 1000),
      },
    });
    expect(await allocatedCores()).toBe(reservedStopped + 0.5);

    // Its engine cannot be reached: the session is left as it is for a later round.
    const { dockerUrl } = await agentRow();
    await w.h.db.agent.update({
      where: { id: toUuid(w.agentId) },
      data: { dockerUrl: `${dockerUrl}.gone` },
    });
    try {
      await w.h.app.sessionWorker.round();
      expect(await rowOf(kasm_id)).toMatchObject({ status: 'starting' });
      expect((await containerState(kasm_id)).Running).toBe(true);
    } finally {
      await w.h.db.agent.update({ where: { id: toUuid(w.agentId) }, data: { dockerUrl } });
    }

    await waitFor(async () => {
      await w.h.app.sessionWorker.round();
      const { status } = await rowOf(kasm_id);
      if (status !== 'stopped') throw new Error(`still ${status}`);
    }, LONG);
    const row = await rowOf(kasm_id);
    expect(row).toMatchObject({ leaseOwner: null, leaseUntil: null, hostPort: null });
    expect(row.statusMessage).toMatch(/resume was interrupted.*can be resumed again/);
    expect((await containerState(kasm_id)).Running).toBe(false);
    expect(await allocatedCores()).toBe(reservedStopped);

    // The heartbeat saw the engine gone; resume_kasm wants it back online.
    await waitFor(async () => {
      await w.h.app.sessionWorker.round();
      if ((await agentRow()).status !== 'online') throw new Error('agent still offline');
    }, LONG);
    const resumed = await w.h.call('resume_kasm', { kasm_id });
    expect(resumed.json().kasm.operational_status).toBe('running');
    expect((await exec(kasm_id, 'cat /tmp/kept.txt')).output.trim()).toBe('kept');
    expect((await w.h.call('destroy_kasm', { kasm_id })).statusCode).toBe(200);
  });
});

describe('pause_kasm', () => {
  it('freezes the container keeping its reservation, and resume thaws it', async () => {
    const { kasm_id } = await running('pauser');
    const reservedRunning = await allocatedCores();
    const paused = await w.h.call('pause_kasm', { kasm_id });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().kasm.operational_status).toBe('paused');
    expect(await containerState(kasm_id)).toMatchObject({ Paused: true, Running: true });
    expect(await allocatedCores()).toBe(reservedRunning);
    // A paused session cannot be stopped into the wrong state by a second pause, nor run commands.
    expect((await w.h.call('pause_kasm', { kasm_id })).statusCode).toBe(200);
    expect(
      (await w.h.call('exec_command_kasm', { kasm_id, exec_config: { cmd: 'true' } })).statusCode,
    ).toBe(409);

    const resumed = await w.h.call('resume_kasm', { kasm_id });
    expect(resumed.json().kasm.operational_status).toBe('running');
    expect(await containerState(kasm_id)).toMatchObject({ Paused: false, Running: true });
    expect((await exec(kasm_id, 'echo awake')).output.trim()).toBe('awake');

    // Destroying a paused session removes its container.
    expect((await w.h.call('pause_kasm', { kasm_id })).statusCode).toBe(200);
    expect((await w.h.call('destroy_kasm', { kasm_id })).statusCode).toBe(200);
    expect(await w.containersOf(kasm_id)).toEqual([]);
  });

  it('answers 404 for an unknown session and 409 when it is not running', async () => {
    const unknown = await w.h.call('pause_kasm', { kasm_id: '0'.repeat(32) });
    expect(unknown.statusCode).toBe(404);
    const { kasm_id } = await running('ended');
    expect((await w.h.call('destroy_kasm', { kasm_id })).statusCode).toBe(200);
    for (const operation of ['stop_kasm', 'pause_kasm', 'resume_kasm']) {
      const res = await w.h.call(operation, { kasm_id });
      expect([operation, res.statusCode]).toEqual([operation, 409]);
    }
  });
});

describe('get_kasm_screenshot', () => {
  it('answers KASM_NO_DISPLAY for a workspace whose display cannot be read', async () => {
    // The test image serves a WebSocket echo at /websockify: a stream, but no VNC server.
    const { kasm_id } = await running('no-display');
    const res = await w.h.call('get_kasm_screenshot', { kasm_id, width: 320 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'KASM_NO_DISPLAY' });
    expect(res.json().detail).toMatch(/display|VNC/);
    expect((await w.h.call('get_kasm_screenshot', { kasm_id, width: 2 })).statusCode).toBe(400);
  });
});

describe('the idle limit', () => {
  /** A workspace with an idle limit, set as an administrator would: update_image. */
  async function idleWorkspace(action: 'stop' | 'destroy'): Promise<string> {
    const imageId = await w.addImage();
    const res = await w.h.call('update_image', {
      target_image: { image_id: imageId, idle_limit_seconds: 8, idle_action: action },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().image).toMatchObject({ idle_limit_seconds: 8, idle_action: action });
    return imageId;
  }

  it('stops or destroys a session with no input and spares one whose stream carries input', async () => {
    const stopping = await idleWorkspace('stop');
    const destroying = await idleWorkspace('destroy');
    const [quiet, doomed, busy] = await Promise.all([
      running('quiet', stopping),
      running('doomed', destroying),
      running('busy', stopping),
    ]);
    const cookie = await signIn(busy.kasm_id, busy.user.user_id);
    const socket = new WebSocket(`${base.replace('http', 'ws')}/kasm/${busy.kasm_id}/websockify`, {
      headers: { origin: base, cookie },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    // The person at the busy session types once a second (the test image's WebSocket echoes).
    // Its stream is not VNC, so every message counts as input; on a VNC stream only keys, pointer
    // and clipboard do (test/workspace-images/desktop-idle.engine.test.ts).
    const typing = setInterval(() => socket.send('key'), 1000);
    try {
      await waitFor(async () => {
        await w.h.app.sessionWorker.round();
        const rows = await w.h.db.kasm.findMany({
          where: { id: { in: [quiet.kasm_id, doomed.kasm_id].map(toUuid) } },
        });
        const statuses = rows.map((row) => row.status).sort();
        if (statuses.join() !== 'destroyed,stopped') throw new Error(`still ${statuses.join()}`);
      }, LONG);
      // Another limit's worth of rounds with input: the busy session stays.
      await sweepFor(w, 9000);
    } finally {
      clearInterval(typing);
      socket.close();
    }
    const busyRow = await w.h.db.kasm.findUniqueOrThrow({ where: { id: toUuid(busy.kasm_id) } });
    expect(busyRow.status).toBe('running');
    expect(busyRow.lastInputAt).not.toBeNull();
    expect((await containerState(quiet.kasm_id)).Running).toBe(false);
    expect(await w.containersOf(doomed.kasm_id)).toEqual([]);
  });
});
